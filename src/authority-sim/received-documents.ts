// What the Ambiente Nacional distributes to a note's recipient (docs/fiscal/nfe-model-55.md#recipient-manifestation, docs/fiscal/nfe-model-55.md#distribution-and-throttling): when a model-55
// note naming a CNPJ/CPF in dest is authorised, its summary (resNFe); each issuer event on it, as
// resEvento; after the recipient's 210200 (confirmation) or 210210 (awareness), the whole nfeProc.
import { sliceElement, textOf } from '../fiscal/sefaz/xml-slice.js';
import { el, leaf, NFE_NAMESPACE, optLeaf } from '../fiscal/xml/xml-text.js';
import type { SimStore } from './sim-store.js';

export const SCHEMA_RES_NFE = 'resNFe_v1.01.xsd';
export const SCHEMA_RES_EVENTO = 'resEvento_v1.01.xsd';
export const SCHEMA_PROC_NFE = 'procNFe_v4.00.xsd';
const ns: ReadonlyArray<readonly [string, string]> = [['xmlns', NFE_NAMESPACE], ['versao', '1.01']];

/** Raw (still escaped) text of the first element of that name inside `within`, or null. */
const raw = (within: string | null | undefined, name: string) => (within ? (sliceElement(within, name)?.inner ?? null) : null);
const rawLeaf = (name: string, text: string) => `<${name}>${text}</${name}>`;

/** The recipient named in dest (CNPJ or CPF), or null (no dest, a foreigner). */
export function recipientOf(nfeXml: string): string | null {
  const dest = raw(nfeXml, 'dest');
  return raw(dest, 'CNPJ') ?? raw(dest, 'CPF');
}

/** resNFe 1.01 of an authorised note from its NFe element and protNFe. */
export function resNFeOf(nfeXml: string, protNFeXml: string, cSitNFe: 1 | 2 | 3 = 1): string {
  const inf = raw(nfeXml, 'infNFe');
  const emit = raw(inf, 'emit');
  const issuer = raw(emit, 'CNPJ') !== null ? rawLeaf('CNPJ', raw(emit, 'CNPJ')!) : rawLeaf('CPF', raw(emit, 'CPF') ?? '');
  return el(
    'resNFe',
    leaf('chNFe', textOf(protNFeXml, 'chNFe') ?? '') + issuer + rawLeaf('xNome', raw(emit, 'xNome') ?? '') + rawLeaf('IE', raw(emit, 'IE') ?? 'ISENTO') +
      rawLeaf('dhEmi', raw(raw(inf, 'ide'), 'dhEmi') ?? '') + rawLeaf('tpNF', raw(raw(inf, 'ide'), 'tpNF') ?? '1') +
      rawLeaf('vNF', raw(raw(inf, 'ICMSTot'), 'vNF') ?? '0.00') + optLeaf('digVal', textOf(protNFeXml, 'digVal')) +
      leaf('dhRecbto', textOf(protNFeXml, 'dhRecbto') ?? '') + leaf('nProt', textOf(protNFeXml, 'nProt') ?? '') + leaf('cSitNFe', cSitNFe),
    ns,
  );
}

/** nfeProc 4.00 from the NFe element (its namespace written on it or inherited) and protNFe. */
export function nfeProcOf(nfeXml: string, protNFeXml: string): string {
  return el('nfeProc', nfeXml + protNFeXml, [['xmlns', NFE_NAMESPACE], ['versao', '4.00']]);
}

/**
 * A model-55 note authorised (by the simulator or handed to it as a third party's): its recipient
 * may now download the summary. Notes without a recipient, and NFC-e, are not distributed.
 */
export async function recordReceivedNote(
  store: SimStore,
  n: { nfeXml: string; protNFeXml: string; tpAmb: number; authorizedAt: Date },
): Promise<{ accessKey: string; recipient: string } | null> {
  const recipient = recipientOf(n.nfeXml);
  const accessKey = textOf(n.protNFeXml, 'chNFe') ?? '';
  if (!recipient || accessKey.slice(20, 22) !== '55') return null;
  await store.dfe.addReceivedNote({
    access_key: accessKey, recipient, tp_amb: n.tpAmb, nfe_proc_xml: nfeProcOf(n.nfeXml, n.protNFeXml), authorized_at: n.authorizedAt,
  });
  await store.dfe.addDoc(recipient, n.tpAmb, accessKey, SCHEMA_RES_NFE, resNFeOf(n.nfeXml, n.protNFeXml));
  return { accessKey, recipient };
}

/** After the recipient's 210200/210210 the whole nfeProc becomes downloadable (once). */
export async function unlockFullNote(store: SimStore, accessKey: string): Promise<void> {
  const note = await store.dfe.receivedNote(accessKey);
  if (note) await store.dfe.addDoc(note.recipient, note.tp_amb, accessKey, SCHEMA_PROC_NFE, note.nfe_proc_xml);
}

/** An issuer's event (cancellation, CC-e) on a distributed note reaches its recipient as resEvento. */
export async function distributeIssuerEvent(store: SimStore, evento: string, answer: { nProt: string; dhRegEvento: string; xEvento: string }): Promise<void> {
  const accessKey = textOf(evento, 'chNFe') ?? '';
  const note = await store.dfe.receivedNote(accessKey);
  if (!note) return;
  const author = raw(evento, 'CNPJ') !== null ? rawLeaf('CNPJ', raw(evento, 'CNPJ')!) : rawLeaf('CPF', raw(evento, 'CPF') ?? '');
  const xml = el(
    'resEvento',
    rawLeaf('cOrgao', raw(evento, 'cOrgao') ?? '') + author + leaf('chNFe', accessKey) + rawLeaf('dhEvento', raw(evento, 'dhEvento') ?? '') +
      rawLeaf('tpEvento', raw(evento, 'tpEvento') ?? '') + rawLeaf('nSeqEvento', raw(evento, 'nSeqEvento') ?? '1') + leaf('xEvento', answer.xEvento) +
      leaf('dhRecbto', answer.dhRegEvento) + leaf('nProt', answer.nProt),
    ns,
  );
  await store.dfe.addDoc(note.recipient, note.tp_amb, accessKey, SCHEMA_RES_EVENTO, xml);
}
