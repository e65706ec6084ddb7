// DANFSe: the NFS-e Padrão Nacional's auxiliary document (A4, one page), rendered in worker threads.
export { CONSULTATION_URL, consultationUrl } from './danfse-labels.js';
export { DANFSE_QUEUE, DANFSE_WORKERS, DANFSE_XML_MAX_BYTES } from './danfse-limits.js';
export { DanfseBusy, renderDanfse } from './danfse-pool.js';
export { renderDanfseInThread, renderDanfseView, type DanfseOptions } from './render-danfse.js';
