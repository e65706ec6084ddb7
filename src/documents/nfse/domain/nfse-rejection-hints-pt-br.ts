// The hints of nfse-rejection.ts in Brazilian Portuguese, by the same Sefin code,
// and the sentences it writes around a code without its own hint. The authority's own message
// (`descricao`) is shown as Sefin wrote it.

export const NFSE_HINTS_PT_BR: Record<string, string> = {
  E0714: 'A Sefin recusou a assinatura da DPS. Confira se o certificado do emitente é válido; se for, troque o perfil de assinatura (PATCH /v1/issuers/:id com nfse.signature_profile "rsa-sha256-exc-c14n" ou "rsa-sha1-c14n", FACTS 16.6) e envie a venda de novo.',
  E0715: 'O certificado venceu, foi revogado ou sua cadeia não pode ser verificada: envie um A1 ICP-Brasil vigente (POST /v1/issuers/:id/certificate).',
  E0716: 'O certificado não é um e-CNPJ/e-CPF ICP-Brasil: envie um cujo titular seja o prestador.',
  E0717: 'A DPS precisa ser assinada: envie o certificado do emitente (POST /v1/issuers/:id/certificate).',
  E0718: 'A DPS foi assinada com o certificado de outra pessoa que não o prestador: envie o e-CNPJ do próprio prestador.',
  E1235: 'A DPS falhou no XSD nacional no elemento indicado na mensagem; corrija esse campo e envie a venda de novo.',
  E0014: 'Esta série e número já geraram uma NFS-e. O gateway recupera essa NFS-e pelo Id da DPS; se isto persistir, o número foi usado fora do gateway: mude nfse.dps_series.',
  E0004: 'O Id da DPS não corresponde aos seus campos: é uma falha do gateway; informe-a com o id da nota.',
};

export const NFSE_REJECTION_TEMPLATES_PT_BR: Record<string, string> = {
  'Correct {} ({}: Anexo I/II of the national NFS-e) and send the sale again.': 'Corrija {} ({}: Anexo I/II da NFS-e nacional) e envie a venda de novo.',
  'Sefin refused the DPS without saying why': 'A Sefin recusou a DPS sem dizer o motivo',
  'Sefin answered {}': 'A Sefin respondeu {}',
};
