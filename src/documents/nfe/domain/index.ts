// The NF-e (model 55) domain's API for the services: validate and compute a request once
// (prepareNfe), then build the signed note for each number (buildPreparedNfe).
export { NfeRequestSchema, NfeItemSchema, DestinatarioSchema, TransporteSchema, CobrancaSchema, IpiSchema, DifalSchema, FINALIDADES, PRESENCAS, INDICADORES_IE, MODALIDADES_FRETE } from './nfe-request.js';
export type { NfeRequest, NfeItem, NfeDestinatario, NfeAddress } from './nfe-request.js';
export type { NfeContext, NfeDocumentContext } from './nfe-context.js';
export { prepareNfe, type PreparedNfe, type PreparedNfeResult } from './prepare-nfe.js';
export { buildPreparedNfe, type BuiltNfe } from './build-nfe.js';
export type { BuiltNfeTotals } from './built-nfe.js';
export { svcTpEmis } from './nfe-context.js';
export { validateNfeRequest, type FieldError } from './validate-nfe.js';
export { nfeXsdPathToField } from './xsd-path-to-field.js';
export { signNfe, type SignedNfe } from '../../../fiscal/xml/nfe/sign-nfe.js';
