// Model -> signed NFe 4.00 text (docs/decisions.md#the-way-a-sale-travels, "fiscal xml": model -> XML 4.00 -> sign -> QR code). The
// document domains hand a finished model here and never write, sign or QR-code XML themselves, so an
// NF-e (model 55) signs with signInfNfe exactly as the NFC-e does.
import { buildNfceQrCode, nfceUrls, qrVersionFor, type NfceQrCodeInput } from '../../qrcode/index.js';
import { formatCents } from '../../../kernel/decimal.js';
import { signCanonical, type SigningKey } from '../signature/sign.js';
import { infNfeTexts, nfeXml, type AnyNfeModel } from './inf-nfe.js';
import type { NfceModel } from './model.js';
import type { NfeModel } from './model-55.js';

export interface SignedInfNfe {
  /** infNFe as placed inside NFe (the default namespace inherited from NFe). */
  embedded: string;
  /** The enveloped Signature over infNFe (C14N 1.0, RSA-SHA1), to be NFe's last child (docs/fiscal/signature.md). */
  signatureXml: string;
  /** base64 SHA-1 of the canonical infNFe (protNFe/digVal, QR code v2 offline). */
  digestValue: string;
}

/** Writes infNFe once in canonical form and signs those exact bytes: nothing is parsed again. */
export function signInfNfe(model: AnyNfeModel, key: SigningKey): SignedInfNfe {
  const texts = infNfeTexts(model);
  const { signatureXml, digestValue } = signCanonical(texts.canonical, 'NFe' + model.accessKey, key);
  return { embedded: texts.embedded, signatureXml, digestValue };
}

export interface SignedNfce {
  /** `<NFe xmlns="http://www.portalfiscal.inf.br/nfe">` with infNFe, infNFeSupl and Signature. */
  xml: string;
  qrCodeUrl: string;
  urlChave: string;
  digestValue: string;
}

/**
 * An NFC-e (model 65): infNFe signed, then infNFeSupl with the consultation QR code, which must come
 * after the signature because QR v2 offline carries its DigestValue (NT 2015.002) and v3 offline is
 * signed with the same key (NT 2025.001). The state, environment, emission, total and recipient in
 * the QR code are the ones written in the model; `csc` is required by QR v2 only.
 */
export function signNfce(model: NfceModel, key: SigningKey, csc?: { id: string; token: string }): SignedNfce {
  const signed = signInfNfe(model, key);
  const { ide, emit, dest } = model;
  const urls = nfceUrls(emit.ender.UF, ide.tpAmb);
  const qrInput: NfceQrCodeInput = {
    accessKey: model.accessKey, tpAmb: ide.tpAmb, tpEmis: ide.tpEmis, uf: emit.ender.UF,
    // dhEmi is the emission instant with its offset, whole seconds (the v3 cut-over dates fall on whole seconds).
    version: qrVersionFor(emit.ender.UF, ide.tpAmb, new Date(ide.dhEmi)),
    dhEmi: ide.dhEmi, vNF: formatCents(model.total.vNF), digestValue: signed.digestValue, signingKey: key,
  };
  if (csc) qrInput.csc = csc;
  if (dest) qrInput.dest = dest.CNPJ ? { kind: 'CNPJ', id: dest.CNPJ } : { kind: 'CPF', id: dest.CPF! };
  const qrCodeUrl = buildNfceQrCode(qrInput);
  const xml = nfeXml(signed.embedded, { qrCode: qrCodeUrl, urlChave: urls.urlChave }, signed.signatureXml);
  return { xml, qrCodeUrl, urlChave: urls.urlChave, digestValue: signed.digestValue };
}

export interface SignedNfe {
  /** `<NFe xmlns="http://www.portalfiscal.inf.br/nfe">` with infNFe and Signature (no infNFeSupl). */
  xml: string;
  /** base64 SHA-1 of the canonical infNFe (protNFe/digVal must match it). */
  digestValue: string;
}

/** An NF-e (model 55): infNFe signed as the NFC-e's (C14N 1.0, RSA-SHA1); no QR code group. */
export function signNfe(model: NfeModel, key: SigningKey): SignedNfe {
  const signed = signInfNfe(model, key);
  return { xml: nfeXml(signed.embedded, undefined, signed.signatureXml), digestValue: signed.digestValue };
}
