import { NFE_NAMESPACE, el, leaf, optLeaf } from '../fiscal/xml/xml-text.js';
import { signCanonical, type SigningKey } from '../fiscal/xml/signature/sign.js';

export const VER_APLIC = 'SIM-SEFAZ-1.0';
const ns: ReadonlyArray<readonly [string, string]> = [['xmlns', NFE_NAMESPACE]];

/** TDateTimeUTC in Brasília time (UTC-03:00), as the authorities stamp their answers. */
export function authorityTime(at: Date): string {
  const local = new Date(at.getTime() - 3 * 3600_000);
  return local.toISOString().slice(0, 19) + '-03:00';
}

/**
 * Signs an element the authority issues (infProt, infEvento of retEvento, infInut of retInutNFe):
 * `inner` is its canonical content; inside its parent it inherits the NF-e default namespace, which
 * inclusive C14N writes on the apex (docs/fiscal/signature.md).
 */
function signedBlock(name: string, id: string, inner: string, key: SigningKey): { element: string; signature: string } {
  const canonical = `<${name} xmlns="${NFE_NAMESPACE}" Id="${id}">${inner}</${name}>`;
  const { signatureXml } = signCanonical(canonical, id, key);
  return { element: `<${name} Id="${id}">${inner}</${name}>`, signature: signatureXml };
}

export interface ProtocolFields {
  tpAmb: number;
  accessKey: string;
  dhRecbto: string;
  nProt: string | null;
  digVal: string | null;
  cStat: number;
  xMotivo: string;
}

/** protNFe 4.00. With nProt it is signed like SEFAZ signs it (infProt Id="ID<nProt>"). */
export function protNFe(p: ProtocolFields, key: SigningKey): string {
  const inner =
    leaf('tpAmb', p.tpAmb) +
    leaf('verAplic', VER_APLIC) +
    leaf('chNFe', p.accessKey) +
    leaf('dhRecbto', p.dhRecbto) +
    optLeaf('nProt', p.nProt) +
    optLeaf('digVal', p.digVal) +
    leaf('cStat', p.cStat) +
    leaf('xMotivo', p.xMotivo);
  if (!p.nProt) return `<protNFe versao="4.00"><infProt>${inner}</infProt></protNFe>`;
  const { element, signature } = signedBlock('infProt', `ID${p.nProt}`, inner, key);
  return `<protNFe versao="4.00">${element}${signature}</protNFe>`;
}

interface LotHead {
  tpAmb: number;
  cUF: string;
  cStat: number;
  xMotivo: string;
  dhRecbto: string;
}

export function retEnviNFe(h: LotHead, body: { protNFe?: string; nRec?: string }): string {
  const infRec = body.nRec ? el('infRec', leaf('nRec', body.nRec) + leaf('tMed', 1)) : '';
  return el(
    'retEnviNFe',
    leaf('tpAmb', h.tpAmb) +
      leaf('verAplic', VER_APLIC) +
      leaf('cStat', h.cStat) +
      leaf('xMotivo', h.xMotivo) +
      leaf('cUF', h.cUF) +
      leaf('dhRecbto', h.dhRecbto) +
      infRec +
      (body.protNFe ?? ''),
    [['versao', '4.00'], ...ns],
  );
}

export function retConsReciNFe(h: LotHead & { nRec: string }, protNFeXml: string | null): string {
  return el(
    'retConsReciNFe',
    leaf('tpAmb', h.tpAmb) +
      leaf('verAplic', VER_APLIC) +
      leaf('nRec', h.nRec) +
      leaf('cStat', h.cStat) +
      leaf('xMotivo', h.xMotivo) +
      leaf('cUF', h.cUF) +
      leaf('dhRecbto', h.dhRecbto) +
      (protNFeXml ?? ''),
    [['versao', '4.00'], ...ns],
  );
}

export function retConsSitNFe(h: LotHead & { accessKey: string }, protNFeXml: string | null, events: string[]): string {
  return el(
    'retConsSitNFe',
    leaf('tpAmb', h.tpAmb) +
      leaf('verAplic', VER_APLIC) +
      leaf('cStat', h.cStat) +
      leaf('xMotivo', h.xMotivo) +
      leaf('cUF', h.cUF) +
      leaf('dhRecbto', h.dhRecbto) +
      leaf('chNFe', h.accessKey) +
      (protNFeXml ?? '') +
      events.join(''),
    [['versao', '4.00'], ...ns],
  );
}

export function retConsStatServ(h: LotHead): string {
  const tMed = h.cStat === 107 ? leaf('tMed', 1) : '';
  return el(
    'retConsStatServ',
    leaf('tpAmb', h.tpAmb) +
      leaf('verAplic', VER_APLIC) +
      leaf('cStat', h.cStat) +
      leaf('xMotivo', h.xMotivo) +
      leaf('cUF', h.cUF) +
      leaf('dhRecbto', h.dhRecbto) +
      tMed,
    [['versao', '4.00'], ...ns],
  );
}

export interface EventAnswerFields {
  tpAmb: number;
  cOrgao: string;
  cStat: number;
  xMotivo: string;
  accessKey: string | null;
  tpEvento: string | null;
  xEvento: string | null;
  nSeqEvento: string | null;
  /** R22 of NT 2023.005's answer: SVRS returns it for the failed-delivery events (its cancellation schema requires it). */
  cOrgaoAutor?: string | null;
  dhRegEvento: string;
  nProt: string | null;
  /** R32 of the EPEC's answer (retEnvEPEC_v1.00.xsd, NT 2014.001 3.3 note 2): the keys pending conciliation, with 142. */
  pending?: readonly string[];
}

/** retEvento 1.00; registered events carry a protocol and are signed (infEvento Id="ID<nProt>"). */
export function retEvento(f: EventAnswerFields, key: SigningKey): string {
  const inner =
    leaf('tpAmb', f.tpAmb) +
    leaf('verAplic', VER_APLIC) +
    leaf('cOrgao', f.cOrgao) +
    leaf('cStat', f.cStat) +
    leaf('xMotivo', f.xMotivo) +
    optLeaf('chNFe', f.accessKey) +
    optLeaf('tpEvento', f.tpEvento) +
    optLeaf('xEvento', f.xEvento) +
    optLeaf('nSeqEvento', f.nSeqEvento) +
    optLeaf('cOrgaoAutor', f.cOrgaoAutor) +
    leaf('dhRegEvento', f.dhRegEvento) +
    optLeaf('nProt', f.nProt) +
    (f.pending ?? []).slice(0, 50).map((k) => leaf('chNFePend', k)).join('');
  if (!f.nProt) return `<retEvento versao="1.00"><infEvento>${inner}</infEvento></retEvento>`;
  const { element, signature } = signedBlock('infEvento', `ID${f.nProt}`, inner, key);
  return `<retEvento versao="1.00">${element}${signature}</retEvento>`;
}

export function retEnvEvento(
  h: { idLote: string; tpAmb: number; cOrgao: string; cStat: number; xMotivo: string },
  events: string[],
): string {
  return el(
    'retEnvEvento',
    leaf('idLote', h.idLote) +
      leaf('tpAmb', h.tpAmb) +
      leaf('verAplic', VER_APLIC) +
      leaf('cOrgao', h.cOrgao) +
      leaf('cStat', h.cStat) +
      leaf('xMotivo', h.xMotivo) +
      events.join(''),
    [['versao', '1.00'], ...ns],
  );
}

export interface InutAnswerFields {
  tpAmb: number;
  cStat: number;
  xMotivo: string;
  cUF: string;
  ano?: string;
  cnpj?: string;
  mod?: string;
  serie?: string;
  nNFIni?: string;
  nNFFin?: string;
  dhRecbto: string;
  nProt: string | null;
}

/** retInutNFe 4.00; a granted voiding (102) is signed (infInut Id="ID<nProt>"). */
export function retInutNFe(f: InutAnswerFields, key: SigningKey): string {
  const inner =
    leaf('tpAmb', f.tpAmb) +
    leaf('verAplic', VER_APLIC) +
    leaf('cStat', f.cStat) +
    leaf('xMotivo', f.xMotivo) +
    leaf('cUF', f.cUF) +
    optLeaf('ano', f.ano) +
    optLeaf('CNPJ', f.cnpj) +
    optLeaf('mod', f.mod) +
    optLeaf('serie', f.serie) +
    optLeaf('nNFIni', f.nNFIni) +
    optLeaf('nNFFin', f.nNFFin) +
    leaf('dhRecbto', f.dhRecbto) +
    optLeaf('nProt', f.nProt);
  const attrs: ReadonlyArray<readonly [string, string]> = [['versao', '4.00'], ...ns];
  if (!f.nProt) return el('retInutNFe', `<infInut>${inner}</infInut>`, attrs);
  const { element, signature } = signedBlock('infInut', `ID${f.nProt}`, inner, key);
  return el('retInutNFe', element + signature, attrs);
}

/** procEventoNFe: the event as received plus the authority's answer (consultation, archive). */
export function procEventoNFe(eventoXml: string, retEventoXml: string): string {
  return el('procEventoNFe', eventoXml + retEventoXml, [['versao', '1.00'], ...ns]);
}
