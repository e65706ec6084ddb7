export { cancellationInEventXml, danfeInputFromXml, type DanfeExtras } from './danfe-input-from-xml.js';
export {
  assertPrintable,
  DanfeInputError,
  DanfeNotAuthorizedError,
  type DanfeAddress,
  type DanfeAuthorization,
  type DanfeCancellation,
  type DanfeConsumer,
  type DanfeInput,
  type DanfeItem,
  type DanfePayment,
  type DanfeSettings,
  type DanfeTotals,
} from './danfe-input.js';
export { renderDanfeNfce, type DanfeRenderOptions } from './render-danfe-nfce.js';
