export { code128c, type Code128Symbol } from './code128.js';
export { danfeNfeInputFromXml, type DanfeNfeExtras } from './danfe-nfe-from-xml.js';
export type {
  DanfeNfeDuplicate,
  DanfeNfeIbsCbs,
  DanfeNfeInput,
  DanfeNfeInvoice,
  DanfeNfeItem,
  DanfeNfeIssqn,
  DanfeNfeParty,
  DanfeNfeTotals,
  DanfeNfeTransport,
  DanfeNfeVolumes,
} from './danfe-nfe-input.js';
export { DANFE_NFE_LIMITS } from './danfe-nfe-limits.js';
export { DanfeNfeBusy, renderDanfeNfeOffThread } from './danfe-nfe-pool.js';
export { renderDanfeNfe, renderDanfeNfeInput, type DanfeNfeOptions } from './render-danfe-nfe.js';
