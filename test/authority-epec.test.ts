import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEpecEvent, epecSummaryOfNfe } from '../src/fiscal/xml/events/index.js';
import type { EventOutcome } from '../src/fiscal/sefaz/outcomes.js';
import { signEvent } from '../src/fiscal/xml/events/event-envelope.js';
import { brasiliaTime, uniqueCnpj } from './support/authority-fixtures.js';
import { xmllint } from './support/xml-tools.js';
import type { AuthorityHarness } from './support/authority-harness.js';
import { HOUR, RS55, signedNfe55, startShiftedHarness } from './support/authority-nfe55.js';

// docs/fiscal/epec.md: the EPEC (110140) at the simulated Ambiente Nacional (NT 2014.001 v1.30 3.8-3.10) and the
// state's authorization of a tpEmis 4 NF-e against it (MOC 7.0 Anexo I 2AB08-10..40), through the real client.
let h: AuthorityHarness;
let shift: { ms: number };
let cnpj: string;
let recipient: string;
let nNF = 1;

beforeAll(async () => {
  ({ h, shift } = await startShiftedHarness());
  cnpj = uniqueCnpj();
  recipient = uniqueCnpj();
});
afterAll(() => h.close());

const cStatOf = (o: EventOutcome) => ('cStat' in o ? Number(o.cStat) : o.kind);
const simNow = () => new Date(Date.now() + shift.ms);
const toAn = (xml: string) => h.client.sendNationalEvent({ tpAmb: 2, signedEventXml: xml, idLote: 1 });
const toState = (xml: string) => h.client.authorize({ ...RS55, signedNFeXml: xml, idLote: 1 });
const note = (over: { tpEmis?: 1 | 4; cNF?: string; n?: number; issuer?: string } = {}) =>
  signedNfe55(h.issuer, { cnpj: over.issuer ?? cnpj, nNF: over.n ?? nNF++, dest: { CNPJ: recipient }, dhEmi: simNow(), tpEmis: over.tpEmis ?? 4, ...(over.cNF ? { cNF: over.cNF } : {}) });
/** The EPEC of a signed note, as the gateway writes it (its summary read back from the note). */
const epecOf = (xml: string, over: { vNF?: string; cOrgaoAutor?: string } = {}) => {
  const summary = epecSummaryOfNfe(xml)!;
  return buildEpecEvent({
    ...summary, ...(over.vNF ? { vNF: over.vNF } : {}), ...(over.cOrgaoAutor ? { cOrgaoAutor: over.cOrgaoAutor } : {}),
    cOrgao: '91', tpAmb: 2, author: { CNPJ: summary.chNFe.slice(6, 20) }, dhEvento: brasiliaTime(simNow()), verAplic: 'gateway-test',
  }, h.issuer.signingKey).xml;
};

describe('EPEC at the Ambiente Nacional (NT 2014.001)', () => {
  it('registers the EPEC of a tpEmis 4 note (136, not linked, protocol 891...), the state consults it as 124, then authorizes the note under the same key', async () => {
    const n = note();
    const out = await toAn(epecOf(n.xml));
    expect(out.kind === 'registered' && out.event).toMatchObject({ cStat: 136, tpEvento: '110140' });
    // NT 2014.001 3.1: the EPEC's protocol number is 891 and twelve digits.
    expect(out.kind === 'registered' && out.event.nProt).toMatch(/^891\d{12}$/);
    // NT 2014.001 5.6: the state's consultation of a key with only its EPEC answers 124 "EPEC Autorizado" with the EPEC.
    const known = await h.client.consult({ ...RS55, accessKey: n.accessKey });
    expect(known).toMatchObject({ kind: 'epec', cStat: 124, xMotivo: 'EPEC Autorizado' });
    expect(known.kind === 'epec' && known.events.map((e) => /<nProt>(\d+)<\/nProt>/.exec(e)?.[1])).toEqual([out.kind === 'registered' && out.event.nProt]);
    const auth = await toState(n.xml);
    expect(auth.kind).toBe('authorized');
    expect(auth.kind === 'authorized' && auth.protocol.info.accessKey).toBe(n.accessKey);
  });

  it('484 for a key without tpEmis 4; 485 for a second EPEC of the same number; 661 for the number of an authorized note; 250 at another cOrgao', async () => {
    const normal = note({ tpEmis: 1 });
    // Written by hand: the builder refuses a key without tpEmis 4 (epecProblems).
    const det = /<detEvento versao="1.00">([\s\S]*)<\/detEvento>/.exec(epecOf(note().xml))![1]!;
    const head = { cOrgao: '91', tpAmb: 2 as const, author: { CNPJ: cnpj }, dhEvento: brasiliaTime(simNow()), nSeqEvento: 1 };
    expect(cStatOf(await toAn(signEvent({ ...head, chNFe: normal.accessKey }, '110140', det, h.issuer.signingKey).xml))).toBe(484);
    const n = note();
    expect(cStatOf(await toAn(epecOf(n.xml)))).toBe(136);
    // The same EPEC sent again (its answer lost) meets the generic 573 of 3.8 (its Id is tpEvento + key + 01) before 3.9's 485.
    expect(cStatOf(await toAn(epecOf(n.xml)))).toBe(573);
    const sameNumber = note({ n: nNF - 1, cNF: '31415926' });
    expect(cStatOf(await toAn(epecOf(sameNumber.xml)))).toBe(485);
    const authorized = note({ tpEmis: 1 });
    expect((await toState(authorized.xml)).kind).toBe('authorized');
    expect(cStatOf(await toAn(epecOf(note({ n: nNF - 1 }).xml)))).toBe(661);
    const other = note();
    const det43 = /<detEvento versao="1.00">([\s\S]*)<\/detEvento>/.exec(epecOf(other.xml))![1]!;
    expect(cStatOf(await toAn(signEvent({ ...head, cOrgao: '43', chNFe: other.accessKey }, '110140', det43, h.issuer.signingKey).xml))).toBe(250);
    expect(cStatOf(await toAn(epecOf(note().xml, { cOrgaoAutor: '35' })))).toBe(455);
  });
});

describe('the state checks a note against its EPEC (MOC 2AB08)', () => {
  const rejection = async (xml: string) => {
    const out = await toState(xml);
    return out.kind === 'rejected' ? { cStat: out.cStat, xMotivo: out.xMotivo } : { cStat: out.kind, xMotivo: '' };
  };

  it('468 for tpEmis 4 without an EPEC; 692 for the number sent as tpEmis 1; 691 under another key; 467 naming vNF when the values diverge', async () => {
    expect((await rejection(note().xml)).cStat).toBe(468);
    const n = note();
    expect(cStatOf(await toAn(epecOf(n.xml)))).toBe(136);
    const asNormal = await rejection(note({ n: nNF - 1, tpEmis: 1 }).xml);
    expect(asNormal.cStat).toBe(692);
    expect(asNormal.xMotivo).toContain(n.accessKey);
    expect((await rejection(note({ n: nNF - 1, cNF: '31415926' }).xml)).cStat).toBe(691);
    const m = note();
    expect(cStatOf(await toAn(epecOf(m.xml, { vNF: '499.00' })))).toBe(136);
    const diverging = await rejection(m.xml);
    expect(diverging).toMatchObject({ cStat: 467 });
    expect(diverging.xMotivo).toContain('vNF');
  });

  it('142 once an EPEC of the issuer waits for its note more than 168 hours, listing its key (chNFePend); its note clears the block', async () => {
    const issuer = uniqueCnpj();
    const pending = note({ issuer });
    const registered = await toAn(epecOf(pending.xml));
    expect(cStatOf(registered)).toBe(136);
    // NT 2014.001 3.3 R22: the answer follows retEnvEPEC_v1.00.xsd (checked by xmllint), cOrgaoAutor included.
    expect(await xmllint((registered as { responseXml: string }).responseXml, 'PL_010_V1.30', 'retEnvEPEC_v1.00.xsd')).toBe('');
    shift.ms += 169 * HOUR;
    const blocked = await toAn(epecOf(note({ issuer }).xml));
    expect(cStatOf(blocked)).toBe(142);
    // NT 2014.001 3.9 (*4) and 3.3 R32: the keys of up to 50 EPEC pending conciliation, in the schema's chNFePend.
    expect(blocked.kind === 'rejected' && blocked.event?.pendingKeys).toEqual([pending.accessKey]);
    expect(await xmllint((blocked as { responseXml: string }).responseXml, 'PL_010_V1.30', 'retEnvEPEC_v1.00.xsd')).toBe('');
    // The pending note, transmitted late, is still the EPEC's (B28-40 allows 30 days of dhCont); its key conciliates the EPEC.
    expect((await toState(pending.xml)).kind).toBe('authorized');
    expect(cStatOf(await toAn(epecOf(note({ issuer }).xml)))).toBe(136);
  });
});
