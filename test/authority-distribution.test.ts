import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DistributionOutcome } from '../src/fiscal/sefaz/distribution.js';
import { nextDistribution, distributionWaitMs } from '../src/fiscal/sefaz/distribution-pacing.js';
import type { EventOutcome } from '../src/fiscal/sefaz/outcomes.js';
import { uniqueCnpj } from './support/authority-fixtures.js';
import type { AuthorityHarness } from './support/authority-harness.js';
import { authorizedNfe55, cce, manifestation, RS55, HOUR, startShiftedHarness } from './support/authority-nfe55.js';
import { validateXml } from '../src/fiscal/xml/xsd/validate-xml.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// The Ambiente Nacional of the simulator: the recipient's manifestation and
// NFeDistribuicaoDFe through the real client over mutual TLS, the one-hour rule on the simulator's clock.
let h: AuthorityHarness;
let issuerCnpj: string;
let nNF = 1;
let shift: { ms: number };

beforeAll(async () => {
  ({ h, shift } = await startShiftedHarness());
  issuerCnpj = uniqueCnpj();
});
afterAll(() => h.close());

const distribute = (recipient: string, query: { ultNSU: number | string } | { NSU: string } | { chNFe: string }) =>
  h.client.distribute({ tpAmb: 2, interested: { CNPJ: recipient }, query });
const manifest = (xml: string) => h.client.sendNationalEvent({ tpAmb: 2, signedEventXml: xml });
const cStatOf = (o: EventOutcome | DistributionOutcome) => ('cStat' in o ? o.cStat : o.kind);
const docs = (o: DistributionOutcome) => (o.kind === 'documents' ? o.documents : []);

describe('NFeDistribuicaoDFe', () => {
  it('resNFe first; 656 when asked again within the hour after catching up or after 137; 138 with the nfeProc after the 210200', async () => {
    const recipient = uniqueCnpj();
    const note = await authorizedNfe55(h, { cnpj: issuerCnpj, nNF: nNF++, recipient });

    const first = await distribute(recipient, { ultNSU: 0 });
    expect(first).toMatchObject({ kind: 'documents', cStat: 138, ultNSU: '000000000000001', maxNSU: '000000000000001' });
    expect(docs(first)).toHaveLength(1);
    expect(docs(first)[0]).toMatchObject({ nsu: '000000000000001', schema: 'resNFe_v1.01.xsd', summary: { kind: 'resNFe', accessKey: note.accessKey, cSitNFe: '1', nProt: note.nProt } });
    expect(await xmllint(docs(first)[0]!.xml!, 'PL_009_V4', 'resNFe_v1.01.xsd')).toBe('');
    expect(first.kind === 'documents' && (await xmllint(first.responseXml, 'PL_009_V4', 'retDistDFeInt_v1.01.xsd'))).toBe('');

    // Caught up (ultNSU == maxNSU): the helper says wait an hour; asking now is improper consumption.
    const plan = nextDistribution({ cStat: 138, askedUltNSU: '0', ultNSU: '1', maxNSU: '1', at: new Date() });
    expect(distributionWaitMs(plan, new Date())).toBeGreaterThan(HOUR - 60_000);
    expect(await distribute(recipient, { ultNSU: plan.ultNSU })).toMatchObject({ kind: 'throttled', cStat: 656 });

    shift.ms = HOUR + 60_000;
    expect(await distribute(recipient, { ultNSU: 1 })).toMatchObject({ kind: 'nothing', cStat: 137, ultNSU: '000000000000001' });
    expect(await distribute(recipient, { ultNSU: 1 })).toMatchObject({ kind: 'throttled' });

    // The recipient confirms: the whole nfeProc becomes available at the next NSU.
    expect(cStatOf(await manifest(manifestation(h, { recipient, ...note, tpEvento: '210200' })))).toBe(135);
    shift.ms = 2 * HOUR + 120_000;
    const full = await distribute(recipient, { ultNSU: 1 });
    expect(full).toMatchObject({ kind: 'documents', ultNSU: '000000000000002', maxNSU: '000000000000002' });
    const proc = docs(full)[0]!;
    expect(proc).toMatchObject({ schema: 'procNFe_v4.00.xsd', summary: { kind: 'procNFe', accessKey: note.accessKey, model: '55', recipient: { CNPJ: recipient } } });
    expect(await xmllint(proc.xml!, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(proc.xml!)).toBe('');
    // By key, the best the party may have: the nfeProc.
    const byKey = await distribute(recipient, { chNFe: note.accessKey });
    expect(docs(byKey).map((d) => d.schema)).toEqual(['procNFe_v4.00.xsd']);
    shift.ms = 0;
  });

  it('at most 50 documents an answer, then the rest at once; out of sequence 656, beyond maxNSU 589', async () => {
    const recipient = uniqueCnpj();
    for (let i = 0; i < 53; i++) await h.sim.holdReceivedNote({ recipient: { CNPJ: recipient } });
    expect(await distribute(recipient, { ultNSU: 60 })).toMatchObject({ cStat: 589 });
    expect(await distribute(recipient, { ultNSU: 10 })).toMatchObject({ kind: 'throttled', cStat: 656 });
    const page = await distribute(recipient, { ultNSU: 0 });
    expect(page).toMatchObject({ cStat: 138, ultNSU: '000000000000050', maxNSU: '000000000000053' });
    expect(docs(page).map((d) => d.nsu)).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1).padStart(15, '0')));
    expect(docs(page).every((d) => d.summary?.kind === 'resNFe' && d.problem === undefined)).toBe(true);
    const next = nextDistribution({ cStat: 138, askedUltNSU: '0', ultNSU: '50', maxNSU: '53', at: new Date() });
    expect(next.reason).toBe('more-documents');
    const rest = await distribute(recipient, { ultNSU: next.ultNSU });
    expect(rest).toMatchObject({ cStat: 138, ultNSU: '000000000000053', maxNSU: '000000000000053' });
    expect(docs(rest)).toHaveLength(3);
    const one = await distribute(recipient, { NSU: '000000000000007' });
    expect(docs(one).map((d) => d.nsu)).toEqual(['000000000000007']);
  });

  it('the issuer\'s events reach the recipient as resEvento; the scenarios no-documents and reject:656 answer 137 and 656', async () => {
    const recipient = uniqueCnpj();
    const note = await authorizedNfe55(h, { cnpj: issuerCnpj, nNF: nNF++, recipient });
    expect(cStatOf(await h.client.sendEvent({ ...RS55, signedEventXml: cce(h, { cnpj: issuerCnpj, ...note, nSeqEvento: 1 }) }))).toBe(135);
    h.sim.setScenario('no-documents', { service: 'distribuicaoDFe' });
    expect(await distribute(recipient, { ultNSU: 0 })).toMatchObject({ kind: 'nothing', cStat: 137 });
    shift.ms = HOUR + 60_000;
    const out = await distribute(recipient, { ultNSU: 0 });
    shift.ms = 0;
    expect(docs(out).map((d) => d.summary?.kind)).toEqual(['resNFe', 'resEvento']);
    expect(docs(out)[1]!.summary).toMatchObject({ tpEvento: '110110', nSeqEvento: '1', author: { CNPJ: issuerCnpj } });
    // By key the note itself (its summary), not the event that came after it.
    expect(docs(await distribute(recipient, { chNFe: note.accessKey })).map((d) => d.schema)).toEqual(['resNFe_v1.01.xsd']);
    h.sim.setScenario('reject:656', { service: 'distribuicaoDFe' });
    expect(await distribute(recipient, { ultNSU: 2 })).toMatchObject({ kind: 'throttled', cStat: 656 });
    expect(await xmllint(docs(out)[1]!.xml!, 'PL_009_V4', 'resEvento_v1.01.xsd')).toBe('');
  });
});

describe('recipient manifestation (Ambiente Nacional, cOrgao 91)', () => {
  it('each conclusive event at most twice (594 the third time); awareness after a conclusive one 655', async () => {
    const recipient = uniqueCnpj();
    const note = await h.sim.holdReceivedNote({ recipient: { CNPJ: recipient } });
    const send = (tpEvento: '210200' | '210210' | '210220' | '210240', nSeqEvento = 1) =>
      manifest(manifestation(h, { recipient, accessKey: note.accessKey, tpEvento, nSeqEvento }));
    const first = await send('210240');
    expect(first.kind === 'registered' && first.event).toMatchObject({ cStat: 135, tpEvento: '210240' });
    // The AN's answer as its own schema has it (retEnvConfRecebto, read from Latin-1 by schema-cache.ts).
    expect(first.kind === 'registered' && validateXml(first.responseXml, { pkg: 'PL_009', file: 'retEnvConfRecebto_v1.00.xsd' }).errors).toEqual([]);
    expect(cStatOf(await send('210240'))).toBe(573);
    expect(cStatOf(await send('210240', 2))).toBe(135);
    expect(cStatOf(await send('210240', 3))).toBe(594);
    expect(cStatOf(await send('210210'))).toBe(655);
    expect(cStatOf(await send('210200'))).toBe(135);
  });

  it('575 when the author is not the recipient, 494 for a key the authority does not know, 596 after 180 days', async () => {
    const recipient = uniqueCnpj();
    const note = await h.sim.holdReceivedNote({ recipient: { CNPJ: recipient } });
    expect(cStatOf(await manifest(manifestation(h, { recipient: uniqueCnpj(), accessKey: note.accessKey, tpEvento: '210210' })))).toBe(575);
    const unknown = note.accessKey.slice(0, 25) + '999999999' + note.accessKey.slice(34);
    expect(cStatOf(await manifest(manifestation(h, { recipient, accessKey: unknown, tpEvento: '210210' })))).toBe(494);
    shift.ms = 181 * 24 * HOUR;
    const late = await manifest(manifestation(h, { recipient, accessKey: note.accessKey, tpEvento: '210200' }));
    shift.ms = 0;
    expect(cStatOf(late)).toBe(596);
    const inTime = await manifest(manifestation(h, { recipient, accessKey: note.accessKey, tpEvento: '210210' }));
    expect(inTime.kind === 'registered' && inTime.event.retEventoXml).toContain('<cOrgao>91</cOrgao>');
    expect(inTime.kind === 'registered' && inTime.event.nProt).toMatch(/^191\d{12}$/);
  });
});
