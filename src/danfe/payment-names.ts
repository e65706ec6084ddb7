// tPag -> the Portuguese name printed in division IV (docs/fiscal/nfce-rules.md#payment-group; same list as sped-da, ACBr, OCA).

const NAMES: Readonly<Record<string, string>> = {
  '01': 'Dinheiro',
  '02': 'Cheque',
  '03': 'Cartão de Crédito',
  '04': 'Cartão de Débito',
  '05': 'Crédito Loja',
  '10': 'Vale Alimentação',
  '11': 'Vale Refeição',
  '12': 'Vale Presente',
  '13': 'Vale Combustível',
  '14': 'Duplicata Mercantil',
  '15': 'Boleto Bancário',
  '16': 'Depósito Bancário',
  '17': 'Pagamento Instantâneo (PIX) - Dinâmico',
  '18': 'Transferência bancária, Carteira Digital',
  '19': 'Programa de fidelidade, Cashback, Crédito Virtual',
  '20': 'Pagamento Instantâneo (PIX) - Estático',
  '21': 'Crédito em Loja',
  '22': 'Pagamento Eletrônico não Informado - falha de hardware do sistema emissor',
  '90': 'Sem pagamento',
  '99': 'Outros',
};

/** For tPag 99 ("Outros") the issuer's xPag says what it was (docs/fiscal/nfce-rules.md#payment-group: xPag needed for 99). */
export function paymentName(tPag: string, xPag?: string): string {
  const code = tPag.padStart(2, '0');
  const description = xPag?.trim();
  if (code === '99' && description) return description;
  return NAMES[code] ?? `Forma de pagamento ${code}`;
}
