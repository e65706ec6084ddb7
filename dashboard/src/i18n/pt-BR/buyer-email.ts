// Words of the buyer e-mail section of an issuer (dashboard/src/screens/issuers/buyer-email-section.tsx).
export const buyerEmail = {
  title: 'E-mail ao comprador',
  intro: 'Ao autorizar uma nota, o comprador recebe por e-mail o DANFE (PDF) e o XML autorizado; se a nota for cancelada, recebe o aviso com o XML do cancelamento.',
  enabled: 'Enviar DANFE e XML ao comprador',
  senderName: 'Nome do remetente',
  senderNameHint: 'Como o e-mail aparece na caixa de entrada. Em branco: o nome fantasia do emitente (ou a razão social).',
  accountant: 'Cópia oculta para a contabilidade',
  accountantHint: 'Opcional: este endereço recebe em cópia oculta (Cco) cada e-mail enviado a um comprador.',
  save: 'Salvar e-mail ao comprador',
  saved: 'Configuração de e-mail salva.',
  on: 'Ligado',
  off: 'Desligado',
};
