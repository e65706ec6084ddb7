import { createHash } from 'node:crypto';
import { el, leaf, NFE_NAMESPACE, optLeaf } from '../xml-text.js';
import { detXml } from './det.js';
import { ideXml } from './ide.js';
import { nfeIdeXml } from './ide-55.js';
import type { NfceModel, RespTecModel } from './model.js';
import type { NfeModel } from './model-55.js';
import { pagXml, TRANSP_XML } from './pag.js';
import { destXml, emitXml } from './parties.js';
import { totalXml } from './total.js';
import { autXmlXml, cobrXml, exportaXml, transpXml } from './transp-cobr.js';

/** Either model of the 4.00 layout: the NFC-e (65) or the NF-e (55, ide.mod = 55). */
export type AnyNfeModel = NfceModel | NfeModel;

export function isModel55(m: AnyNfeModel): m is NfeModel {
  return 'mod' in m.ide && m.ide.mod === 55;
}

function infAdicXml(m: { infAdFisco?: string; infCpl?: string }): string {
  return el('infAdic', optLeaf('infAdFisco', m.infAdFisco) + optLeaf('infCpl', m.infCpl));
}

function respTecXml(m: RespTecModel): string {
  return el(
    'infRespTec',
    leaf('CNPJ', m.CNPJ) +
      leaf('xContato', m.xContato) +
      leaf('email', m.email) +
      leaf('fone', m.fone) +
      (m.csrt ? leaf('idCSRT', m.csrt.idCSRT) + leaf('hashCSRT', m.csrt.hashCSRT) : ''),
  );
}

/** hashCSRT (NT 2018.005): base64 of SHA-1 over the CSRT followed by the access key. */
export function csrtHash(csrt: string, accessKey: string): string {
  return createHash('sha1').update(csrt + accessKey, 'utf8').digest('base64');
}

/**
 * infNFe in canonical form. With `inheritedNamespace` the default namespace is written as the
 * first attribute, which is exactly the C14N 1.0 form of infNFe inside <NFe xmlns=...> (the
 * bytes that are digested); without it, the text placed inside NFe.
 */
export function infNfeXml(m: AnyNfeModel, inheritedNamespace: boolean): string {
  const attrs: Array<[string, string]> = inheritedNamespace ? [['xmlns', NFE_NAMESPACE]] : [];
  attrs.push(['Id', 'NFe' + m.accessKey], ['versao', '4.00']);
  if (isModel55(m)) return el('infNFe', nfeBody(m), attrs);
  return el(
    'infNFe',
    ideXml(m.ide) +
      emitXml(m.emit) +
      (m.dest ? destXml(m.dest) : '') +
      m.det.map(detXml).join('') +
      totalXml(m.total, m.reformTotal) +
      (m.transp ? transpXml({ ...m.transp, vol: [] }) : TRANSP_XML) +
      pagXml(m.pag.detPag, m.pag.vTroco) +
      (m.infAdic ? infAdicXml(m.infAdic) : '') +
      (m.respTec ? respTecXml(m.respTec) : ''),
    attrs,
  );
}

/** infNFe children of a model 55 note, in TNFe order (autXML before det; cobr between transp and pag; exporta after infAdic). */
function nfeBody(m: NfeModel): string {
  return (
    nfeIdeXml(m.ide) +
    emitXml(m.emit) +
    destXml(m.dest) +
    autXmlXml(m.autXML) +
    m.det.map(detXml).join('') +
    totalXml(m.total, m.reformTotal) +
    transpXml(m.transp) +
    (m.cobr ? cobrXml(m.cobr) : '') +
    pagXml(m.pag.detPag, m.pag.vTroco) +
    (m.infIntermed ? el('infIntermed', leaf('CNPJ', m.infIntermed.CNPJ) + leaf('idCadIntTran', m.infIntermed.idCadIntTran)) : '') +
    (m.infAdic && (m.infAdic.infAdFisco || m.infAdic.infCpl) ? infAdicXml(m.infAdic) : '') +
    (m.exporta ? exportaXml(m.exporta) : '') +
    (m.respTec ? respTecXml(m.respTec) : '')
  );
}

/** infNFe body once, both forms: canonical (to sign) and as placed inside NFe. */
export function infNfeTexts(m: AnyNfeModel): { canonical: string; embedded: string } {
  const canonical = infNfeXml(m, true);
  const embedded = canonical.replace(` xmlns="${NFE_NAMESPACE}"`, '');
  return { canonical, embedded };
}

/**
 * The full NFe document: infNFe + infNFeSupl + Signature (Signature last, docs/fiscal/signature.md). A model 55
 * note has no infNFeSupl (its QR code group is NFC-e only): pass `supl` undefined.
 */
export function nfeXml(embeddedInfNfe: string, supl: { qrCode: string; urlChave: string } | undefined, signatureXml: string): string {
  const inf = supl ? el('infNFeSupl', leaf('qrCode', supl.qrCode) + leaf('urlChave', supl.urlChave)) : '';
  return `<NFe xmlns="${NFE_NAMESPACE}">` + embeddedInfNfe + inf + signatureXml + '</NFe>';
}
