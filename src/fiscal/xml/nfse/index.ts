// NFS-e Padrão Nacional, DPS 1.01: the pure fiscal core later layers build on (docs/fiscal/nfse-national.md).
export type { DpsAddress, DpsIbsCbs, DpsModel, DpsPartyId, DpsPessoa, DpsPisCofins, DpsPrestador, DpsRegTrib, DpsServ, DpsSubst, DpsTotTrib, DpsValores } from './model.js';
export { buildDpsId, isValidNfseKey, nfseKeyCheckDigit, parseDpsId, parseNfseKey, type DpsIdParts, type InscriptionType, type NfseKeyParts } from './dps-id.js';
export { DPS_VERSION, dpsIdOf, dpsXml, infDpsTexts, writeDps, type DpsTexts } from './write-dps.js';
export {
  DEFAULT_DPS_SIGNATURE_PROFILE,
  DPS_SIGNATURE_PROFILES,
  NFSE_ACCEPTED_PROFILES,
  signDps,
  signNfseTexts,
  verifyNfseDocument,
  type DpsSignatureProfileName,
  type SignedDps,
  type SignedNfseXml,
} from './sign-dps.js';
export type { NfseDps, NfseEmit, NfseEmitAddress, NfseIbsCbs, NfseParty, NfsePartyAddress, NfsePisCofins, NfseServ, NfseValues, NfseView } from './nfse-view.js';
export { NFSE_XML_MAX_BYTES, NfseReadError, readNfse } from './read-nfse.js';
export { nfseRoot, signableTexts, type NfseSignableTexts } from './nfse-texts.js';
export {
  PED_REG_EVENTO_VERSION,
  infPedRegTexts,
  pedRegEventoId,
  pedRegEventoXml,
  writePedRegEvento,
  type NfseCancellation,
  type NfseCancellationAnalysisRequest,
  type NfseCancellationReason,
  type NfseEventDetail,
  type PedRegEventoModel,
  type PedRegEventoTexts,
} from './write-event.js';
export { signPedRegEvento, type SignedPedRegEvento } from './sign-event.js';
