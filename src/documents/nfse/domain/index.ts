// NFS-e (Padrão Nacional) document domain: request -> field errors or a prepared DPS -> signed DPS per number.
export { NfseRequestSchema, NfsePartySchema, NfseAddressSchema, type NfseRequest, type NfseParty, type NfseAddress } from './nfse-request.js';
export type { NfseContext, NfseDocumentContext, NfseIssuer } from './nfse-context.js';
export { checkNfse, type FieldError } from './validate-nfse.js';
export { prepareNfse, type PreparedDps, type PreparedNfseResult } from './prepare-nfse.js';
export { buildPreparedDps, type BuiltDps } from './build-nfse.js';
export { dpsFigures, type DpsFigures } from './figures.js';
