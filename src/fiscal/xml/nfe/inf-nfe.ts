import { createHash } from 'node:crypto';
import { el, leaf, NFE_NAMESPACE } from '../xml-text.js';
import { detXml } from './det.js';
import { ideXml } from './ide.js';
import type { NfceModel, RespTecModel } from './model.js';
import { pagXml, TRANSP_XML } from './pag.js';
import { destXml, emitXml } from './parties.js';
import { totalXml } from './total.js';

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
export function infNfeXml(m: NfceModel, inheritedNamespace: boolean): string {
  const attrs: Array<[string, string]> = inheritedNamespace ? [['xmlns', NFE_NAMESPACE]] : [];
  attrs.push(['Id', 'NFe' + m.accessKey], ['versao', '4.00']);
  return el(
    'infNFe',
    ideXml(m.ide) +
      emitXml(m.emit) +
      (m.dest ? destXml(m.dest) : '') +
      m.det.map(detXml).join('') +
      totalXml(m.total, m.reformTotal) +
      TRANSP_XML +
      pagXml(m.pag.detPag, m.pag.vTroco) +
      (m.infAdic ? el('infAdic', leaf('infCpl', m.infAdic.infCpl)) : '') +
      (m.respTec ? respTecXml(m.respTec) : ''),
    attrs,
  );
}

/** infNFe body once, both forms: canonical (to sign) and as placed inside NFe. */
export function infNfeTexts(m: NfceModel): { canonical: string; embedded: string } {
  const canonical = infNfeXml(m, true);
  const embedded = canonical.replace(` xmlns="${NFE_NAMESPACE}"`, '');
  return { canonical, embedded };
}

/** The full NFe document: infNFe + infNFeSupl + Signature (Signature last, FACTS 3). */
export function nfeXml(embeddedInfNfe: string, supl: { qrCode: string; urlChave: string }, signatureXml: string): string {
  const inf = el('infNFeSupl', leaf('qrCode', supl.qrCode) + leaf('urlChave', supl.urlChave));
  return `<NFe xmlns="${NFE_NAMESPACE}">` + embeddedInfNfe + inf + signatureXml + '</NFe>';
}
