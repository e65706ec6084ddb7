// PedRegEventoModel -> signed pedRegEvento, like the DPS (docs/fiscal/nfse-national.md#signature): enveloped on infPedReg, Reference
// URI "#" + Id, the author's certificate in KeyInfo, Signature as pedRegEvento's last child; mandatory for
// 101101 and 101103 (docs/fiscal/nfse-national.md#events, E1989). The same two configurable profiles as signDps.
import type { SigningKey } from '../signature/sign.js';
import { DEFAULT_DPS_SIGNATURE_PROFILE, signNfseTexts, type DpsSignatureProfileName, type SignedNfseXml } from './sign-dps.js';
import { infPedRegTexts, pedRegEventoXml, type PedRegEventoModel } from './write-event.js';

/** `<pedRegEvento xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01">` with infPedReg and Signature; `id` is the 59-character request Id. */
export type SignedPedRegEvento = SignedNfseXml;

/** Throws (RangeError, field named) when the model breaks a rule of the XSD; see write-event.ts. */
export function signPedRegEvento(model: PedRegEventoModel, key: SigningKey, profile: DpsSignatureProfileName = DEFAULT_DPS_SIGNATURE_PROFILE): SignedPedRegEvento {
  return signNfseTexts(infPedRegTexts(model), pedRegEventoXml, key, profile);
}
