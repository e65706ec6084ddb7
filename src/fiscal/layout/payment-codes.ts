// Payment method -> tPag and card brand -> tBand (docs/fiscal/nfce-rules.md#payment-group; lists of sped-da, ACBr, OCA agree).

export const PAYMENT_METHODS = {
  dinheiro: '01',
  cheque: '02',
  credito: '03',
  debito: '04',
  credito_loja: '05',
  vale_alimentacao: '10',
  vale_refeicao: '11',
  vale_presente: '12',
  vale_combustivel: '13',
  boleto: '15',
  deposito: '16',
  pix: '17',
  transferencia: '18',
  fidelidade: '19',
  pix_estatico: '20',
  sem_pagamento: '90',
  outros: '99',
} as const;

export type PaymentMethod = keyof typeof PAYMENT_METHODS;

export const CARD_BRANDS = {
  visa: '01', mastercard: '02', amex: '03', sorocred: '04', diners: '05', elo: '06', hipercard: '07',
  aura: '08', cabal: '09', alelo: '10', banescard: '11', calcard: '12', credz: '13', discover: '14',
  goodcard: '15', greencard: '16', hiper: '17', jcb: '18', mais: '19', maxvan: '20', policard: '21',
  redecompras: '22', sodexo: '23', valecard: '24', verocheque: '25', vr: '26', ticket: '27', outros: '99',
} as const;

export type CardBrand = keyof typeof CARD_BRANDS;

/** Methods that carry the `card` group ("cartões, PIX, boletos e outros pagamentos eletrônicos"). */
export const CARD_GROUP_METHODS: ReadonlySet<PaymentMethod> = new Set(['credito', 'debito', 'pix', 'pix_estatico']);

/** Methods where a card brand makes sense (the brand of the card that paid). */
export const CARD_METHODS: ReadonlySet<PaymentMethod> = new Set(['credito', 'debito', 'credito_loja', 'vale_alimentacao', 'vale_refeicao', 'vale_presente', 'vale_combustivel']);

/** Methods that can be overpaid, the excess returned as change (vTroco). */
export const CHANGE_METHODS: ReadonlySet<PaymentMethod> = new Set(['dinheiro']);
