import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEvent } from '../src/fiscal/xml/events/event-envelope.js';
import { CCE_CONDITIONS_OF_USE } from '../src/fiscal/xml/events/index.js';
import type { EventOutcome } from '../src/fiscal/sefaz/outcomes.js';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { generateTestPfx } from './support/generate-certificate.js';
import { brasiliaTime, uniqueCnpj } from './support/authority-fixtures.js';
import type { AuthorityHarness } from './support/authority-harness.js';
import { authorizedNfe55, cce, manifestation, nfeCancellation, RS55, HOUR, startShiftedHarness } from './support/authority-nfe55.js';

// Model-55 events at the UF's reception: CC-e rules, the NF-e cancellation
// window, cancellation after the recipient's confirmation. Through the real client, over mutual TLS.
let h: AuthorityHarness;
let cnpj: string;
let recipient: string;
let nNF = 1;
let shift: { ms: number };

beforeAll(async () => {
  ({ h, shift } = await startShiftedHarness());
  cnpj = uniqueCnpj();
  recipient = uniqueCnpj();
});
afterAll(() => h.close());

const authorized = () => authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
const cStatOf = (o: EventOutcome) => ('cStat' in o ? o.cStat : o.kind);
const det = `<descEvento>Carta de Correcao</descEvento><xCorrecao>Texto da correcao aqui</xCorrecao><xCondUso>${CCE_CONDITIONS_OF_USE.plain}</xCondUso>`;
const send = (xml: string) => h.client.sendEvent({ ...RS55, signedEventXml: xml, idLote: 1 });
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  shift.ms = ms;
  try {
    return await fn();
  } finally {
    shift.ms = 0;
  }
}

describe('MOC 4.1 rules of the event lot and the signing certificate', () => {
  it('491 (D04) an event type the authority does not register, 492 (D05) another verEvento, 291 (E02) an expired signing certificate', async () => {
    const note = await authorized();
    const head = { cOrgao: '43', tpAmb: 2 as const, author: { CNPJ: cnpj }, chNFe: note.accessKey, dhEvento: brasiliaTime(new Date()), nSeqEvento: 1 };
    expect(cStatOf(await send(signEvent(head, '110199', det, h.issuer.signingKey).xml))).toBe(491);
    expect(cStatOf(await send(signEvent(head, '110110', det, h.issuer.signingKey).xml.replace('<verEvento>1.00</verEvento>', '<verEvento>2.00</verEvento>')))).toBe(492);
    const expired = parsePfx(generateTestPfx(cnpj, 'x', 2048, { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2021-01-01T00:00:00Z') }), 'x');
    const signedExpired = signEvent(head, '110110', det, { privateKey: expired.privateKey, certificateBase64: expired.certificateBase64 }).xml;
    expect(cStatOf(await send(signedExpired))).toBe(291);
    expect(cStatOf(await send(cce(h, { cnpj, ...note, nSeqEvento: 1 })))).toBe(135);
  });
});

describe('CC-e 110110 (NF-e only)', () => {
  it('registers the next sequence each time; 573 for one already used, 594 for a jump or above 20', async () => {
    const note = await authorized();
    const first = await send(cce(h, { cnpj, ...note, nSeqEvento: 1 }));
    expect(first.kind === 'registered' && first.event).toMatchObject({ cStat: 135, tpEvento: '110110', nSeqEvento: '1' });
    expect(cStatOf(await send(cce(h, { cnpj, ...note, nSeqEvento: 1 })))).toBe(573);
    expect(cStatOf(await send(cce(h, { cnpj, ...note, nSeqEvento: 3 })))).toBe(594);
    expect(cStatOf(await send(cce(h, { cnpj, ...note, nSeqEvento: 2 })))).toBe(135);
    const known = await h.client.consult({ ...RS55, accessKey: note.accessKey });
    expect(known.kind === 'authorized' && known.events.filter((e) => e.includes('<tpEvento>110110<'))).toHaveLength(2);
  });

  it('594 above 20 (the generic leiauteEvento accepts 21, the rule does not)', async () => {
    const note = await authorized();
    const head = { cOrgao: '43', tpAmb: 2 as const, author: { CNPJ: cnpj }, chNFe: note.accessKey, dhEvento: brasiliaTime(new Date()), nSeqEvento: 21 };
    // The builder refuses 21 (the CC-e schema's limit): written here with the generic writer, as a careless client would.
    expect(cStatOf(await send(signEvent(head, '110110', det, h.issuer.signingKey).xml))).toBe(594);
  });

  it('784 for an NFC-e key, 580 on a cancelled note, 596 after 720 hours, 493 (MOC D06) for a text the e110110 schema refuses', async () => {
    const nfceKey = '43260306929383000163650010000000261000010301';
    const head = { cOrgao: '43', tpAmb: 2 as const, author: { CNPJ: cnpj }, chNFe: nfceKey, dhEvento: brasiliaTime(new Date()), nSeqEvento: 1 };
    expect(cStatOf(await send(signEvent(head, '110110', det, h.issuer.signingKey).xml))).toBe(784);
    const badText = signEvent({ ...head, chNFe: (await authorized()).accessKey }, '110110', det.replace('Texto da correcao aqui', 'curta'), h.issuer.signingKey);
    expect(cStatOf(await send(badText.xml))).toBe(493);

    const canceled = await authorized();
    expect(cStatOf(await send(nfeCancellation(h, { cnpj, ...canceled })))).toBe(135);
    expect(cStatOf(await send(cce(h, { cnpj, ...canceled, nSeqEvento: 1 })))).toBe(580);

    const old = await authorized();
    expect(cStatOf(await later(721 * HOUR, () => send(cce(h, { cnpj, ...old, nSeqEvento: 1 }))))).toBe(596);
    expect(cStatOf(await later(719 * HOUR, () => send(cce(h, { cnpj, ...old, nSeqEvento: 1 }))))).toBe(135);
  });
});

describe('NF-e cancellation', () => {
  it('24 hours (NFC-e keeps 30 minutes): 501 after, 135 before', async () => {
    const late = await authorized();
    expect(cStatOf(await later(25 * HOUR, () => send(nfeCancellation(h, { cnpj, ...late }))))).toBe(501);
    const inTime = await authorized();
    expect(cStatOf(await later(23 * HOUR, () => send(nfeCancellation(h, { cnpj, ...inTime }))))).toBe(135);
  });

  it('221 once the recipient confirmed the operation (210200 at the Ambiente Nacional)', async () => {
    const note = await authorized();
    const confirmed = await h.client.sendNationalEvent({ tpAmb: 2, signedEventXml: manifestation(h, { recipient, ...note, tpEvento: '210200' }) });
    expect(confirmed.kind === 'registered' && confirmed.event.cStat).toBe(135);
    expect(cStatOf(await send(nfeCancellation(h, { cnpj, ...note })))).toBe(221);
  });
});
