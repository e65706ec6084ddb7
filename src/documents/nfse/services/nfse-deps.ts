// The NFS-e has no model code; its DPS series are numbered under 99 in the shared numbering (migration 17).
export const NFSE_MODEL = 99 as const;
export const NFSE_AUTHORIZE_JOB = 'nfse.authorize';
export const NFSE_CANCEL_JOB = 'nfse.cancel';
