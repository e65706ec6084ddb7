// What the DPS and the event request share on paper: one signed child with an Id (infDPS, infPedReg) in
// a versioned root of the national namespace, written once as placed and once in canonical form.
import { el, NFSE_NAMESPACE } from '../xml-text.js';

export interface NfseSignableTexts {
  id: string;
  /** The signed element as placed inside its root (the default namespace inherited). */
  embedded: string;
  /** The same element in canonical form: inclusive and exclusive C14N agree, only the default namespace is in scope. */
  canonical: string;
}

/** `<name Id="...">body</name>` both ways. */
export function signableTexts(name: string, id: string, body: string): NfseSignableTexts {
  return { id, embedded: el(name, body, [['Id', id]]), canonical: el(name, body, [['xmlns', NFSE_NAMESPACE], ['Id', id]]) };
}

/** The root around the signed element and its Signature (the root's last child). */
export function nfseRoot(name: string, version: string, inner: string): string {
  return el(name, inner, [['xmlns', NFSE_NAMESPACE], ['versao', version]]);
}
