// Sefin Nacional signs what it generates (NFS-e, registered events) with RSA-SHA256 + SHA-256 +
// exclusive C14N WithComments (docs/fiscal/nfse-national.md#signature, seen on the real RJ sample). These documents embed a
// taxpayer's signed DPS or pedRegEvento verbatim, whose text is not canonical (empty-element tags,
// maybe comments), so the canonical form of the signed element comes from a DOM, not from our text.
import { DOMParser, type Element } from '@xmldom/xmldom';
import { ExclusiveCanonicalizationWithComments } from 'xml-crypto';
import { signCanonical, type SigningKey } from '../../fiscal/xml/signature/sign.js';
import { RSA_SHA256_EXC_C14N_WITH_COMMENTS } from '../../fiscal/xml/signature/signature-profile.js';

/**
 * Appends Sefin's enveloped signature of `element` (infNFSe, infEvento) to `xml`, whose root is
 * that element's parent: the Signature becomes the root's last child (TCNFSe, TCEvento).
 */
export function signAsSefin(xml: string, element: 'infNFSe' | 'infEvento', key: SigningKey): string {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  const target = root ? (Array.from(root.childNodes).find((n) => (n as Element).localName === element) as Element | undefined) : undefined;
  const id = target?.getAttribute('Id');
  if (!root || !target || !id) throw new Error(`${element} with an Id is not the root's child`);
  const canonical = new ExclusiveCanonicalizationWithComments().process(target as unknown as Parameters<ExclusiveCanonicalizationWithComments['process']>[0], {});
  const { signatureXml } = signCanonical(canonical, id, key, RSA_SHA256_EXC_C14N_WITH_COMMENTS);
  const close = xml.lastIndexOf('</');
  return xml.slice(0, close) + signatureXml + xml.slice(close);
}
