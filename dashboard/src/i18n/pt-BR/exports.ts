// The monthly XML exports screen (the accountant's ZIP of a month's XMLs).
export const exports = {
  title: 'Exportações',
  intro: 'Os XMLs de um mês de um emitente em um único ZIP (autorizados, cancelados, inutilizações e recebidos), com um manifest.csv. Cada ZIP fica disponível por 7 dias; os XMLs continuam guardados e o mês pode ser pedido de novo.',
  issuer: 'Emitente',
  month: 'Mês',
  monthHint: 'AAAA-MM, por exemplo 2026-10',
  request: 'Gerar exportação',
  empty: 'Nenhuma exportação ainda.',
  created: 'Pedida em',
  progress: 'Arquivos',
  size: 'Tamanho',
  download: 'Baixar ZIP',
  expires: 'Disponível até',
  status: {
    queued: 'Na fila',
    building: 'Gerando',
    ready: 'Pronta',
    failed: 'Falhou',
    expired: 'Expirada',
  } as Record<string, string>,
};
