// Mandatory texts of homologation documents (tpAmb 2), docs/fiscal/nfce-rules.md: the first item's xProd (373) and
// the recipient's xNome when a recipient is present (598). Written by the gateway so a client's
// production payload works unchanged in homologation (docs/decisions.md#api-conventions).
export const HOMOLOGATION_ITEM_DESCRIPTION = 'NOTA FISCAL EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';
export const HOMOLOGATION_RECIPIENT_NAME = 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';
