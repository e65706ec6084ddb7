import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDeliveryCancelEvent, buildDeliveryFailureEvent, buildDeliveryProofEvent, deliveryImageHash,
} from '../src/fiscal/xml/events/index.js';
import type { EventOutcome } from '../src/fiscal/sefaz/outcomes.js';
import { signEvent } from '../src/fiscal/xml/events/event-envelope.js';
import { brasiliaTime, uniqueCnpj } from './support/authority-fixtures.js';
import type { AuthorityHarness } from './support/authority-harness.js';
import { authorizedNfe55, nfeCancellation, RS55, startShiftedHarness } from './support/authority-nfe55.js';

// docs/fiscal/delivery-events.md: the NT 2021.001 (proof, at the Ambiente Nacional) and NT 2023.005 (failure, at SVRS)
// rules at the simulated event receptions, through the real client. Codes from the NTs' tables 3.7, 4.7 and 5.1.
let h: AuthorityHarness;
let cnpj: string;
let recipient: string;
let nNF = 1;

beforeAll(async () => {
  ({ h } = await startShiftedHarness());
  cnpj = uniqueCnpj();
  recipient = uniqueCnpj();
});
afterAll(() => h.close());

const cStatOf = (o: EventOutcome) => ('cStat' in o ? Number(o.cStat) : o.kind);
const nProtOf = (o: EventOutcome) => (o.kind === 'registered' ? o.event?.nProt ?? '' : '');
const toAn = (xml: string) => h.client.sendNationalEvent({ tpAmb: 2, signedEventXml: xml, idLote: 1 });
const toSvrs = (xml: string) => h.client.sendSvrsEvent({ tpAmb: 2, signedEventXml: xml, idLote: 1 });
const minutesAgo = (m: number) => brasiliaTime(new Date(Date.now() - m * 60_000));
const head = (chNFe: string, cOrgao: string, nSeqEvento = 1) => ({
  cOrgao, cOrgaoAutor: '43', tpAmb: 2 as const, author: { CNPJ: cnpj }, chNFe, dhEvento: minutesAgo(0), nSeqEvento, verAplic: 'gateway-test',
});
const proof = (chNFe: string, over: { nSeq?: number; dhEntrega?: string } = {}) =>
  buildDeliveryProofEvent({
    ...head(chNFe, '91', over.nSeq), dhEntrega: over.dhEntrega ?? minutesAgo(5), nDoc: '12345678909', xNome: 'Maria da Silva',
    hashComprovante: deliveryImageHash(chNFe, 'aW1hZ2Vt'),
  }, h.issuer.signingKey).xml;
const failure = (chNFe: string, nSeq = 1) =>
  buildDeliveryFailureEvent({ ...head(chNFe, '92', nSeq), dhTentativaEntrega: minutesAgo(5), tpMotivo: 1, hashTentativaEntrega: deliveryImageHash(chNFe, 'aW1hZ2Vt') }, h.issuer.signingKey).xml;
/** The same detEvento signed under another cOrgao (the builder refuses it, the authority answers 250). */
const resigned = (xml: string, cOrgao: string) => {
  const det = /<detEvento versao="1.00">([\s\S]*)<\/detEvento>/.exec(xml)![1]!;
  const chNFe = /<chNFe>(\d{44})</.exec(xml)![1]!;
  const tp = /<tpEvento>(\d{6})</.exec(xml)![1]!;
  return signEvent({ cOrgao, tpAmb: 2, author: { CNPJ: cnpj }, chNFe, dhEvento: minutesAgo(0), nSeqEvento: 1 }, tp, det, h.issuer.signingKey).xml;
};
const cancel = (chNFe: string, tp: '110131' | '110193', nProtEvento: string, nSeq = 1) =>
  buildDeliveryCancelEvent({ ...head(chNFe, tp === '110131' ? '91' : '92', nSeq), nProtEvento }, tp, h.issuer.signingKey).xml;

describe('110130 Comprovante de Entrega and 110131 its cancellation (NT 2021.001)', () => {
  it('registers a proof (135), refuses a second while it stands (825), cancels it (135), then takes a new one', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    const first = await toAn(proof(note.accessKey));
    expect(first.kind === 'registered' && first.event).toMatchObject({ cStat: 135, tpEvento: '110130' });
    expect(cStatOf(await toAn(proof(note.accessKey, { nSeq: 2 })))).toBe(825);
    expect(cStatOf(await toAn(cancel(note.accessKey, '110131', '991260000000001')))).toBe(460);
    expect(cStatOf(await toAn(cancel(note.accessKey, '110131', nProtOf(first))))).toBe(135);
    expect(cStatOf(await toAn(proof(note.accessKey, { nSeq: 2 })))).toBe(135);
  });

  it('250 at another cOrgao than 91; 821 for a delivery after the event, 823 before the NF-e; 459 for cancelling a proof that never was', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    expect(cStatOf(await toAn(resigned(proof(note.accessKey), '92')))).toBe(250);
    expect(cStatOf(await toAn(resigned(proof(note.accessKey), '43')))).toBe(250);
    expect(cStatOf(await toAn(proof(note.accessKey, { dhEntrega: brasiliaTime(new Date(Date.now() + 3_600_000)) })))).toBe(821);
    expect(cStatOf(await toAn(proof(note.accessKey, { dhEntrega: '2020-01-01T10:00:00-03:00' })))).toBe(823);
    expect(cStatOf(await toAn(cancel(note.accessKey, '110131', '991260000000001')))).toBe(459);
  });

  it('826: the NF-e cannot be cancelled while a proof stands; once the proof is cancelled it can', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    const registered = await toAn(proof(note.accessKey));
    const cancelNfe = () => h.client.sendEvent({ ...RS55, signedEventXml: nfeCancellation(h, { cnpj, accessKey: note.accessKey, nProt: note.nProt }), idLote: 1 });
    expect(cStatOf(await cancelNfe())).toBe(826);
    expect(cStatOf(await toAn(cancel(note.accessKey, '110131', nProtOf(registered))))).toBe(135);
    expect(cStatOf(await cancelNfe())).toBe(135);
    // 580 on a cancelled NF-e.
    expect(cStatOf(await toAn(proof(note.accessKey, { nSeq: 2 })))).toBe(580);
  });
});

describe('110192 Insucesso na Entrega and 110193 its cancellation (NT 2023.005, SVRS)', () => {
  it('registers a failure at SVRS (135), 825 for a second, cancels it and takes another', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    const first = await toSvrs(failure(note.accessKey));
    expect(first.kind === 'registered' && first.event).toMatchObject({ cStat: 135, tpEvento: '110192' });
    expect(nProtOf(first)).toMatch(/^192\d{12}$/);
    expect(cStatOf(await toSvrs(failure(note.accessKey, 2)))).toBe(825);
    expect(cStatOf(await toSvrs(cancel(note.accessKey, '110193', nProtOf(first))))).toBe(135);
    expect(cStatOf(await toSvrs(failure(note.accessKey, 2)))).toBe(135);
  });

  it('250 for a failure addressed to the Ambiente Nacional (91), 455 for another author state', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    expect(cStatOf(await toSvrs(resigned(failure(note.accessKey), '91')))).toBe(250);
    const other = buildDeliveryFailureEvent(
      { ...head(note.accessKey, '92'), cOrgaoAutor: '35', dhTentativaEntrega: minutesAgo(5), tpMotivo: 3, hashTentativaEntrega: deliveryImageHash(note.accessKey, 'eA==') },
      h.issuer.signingKey,
    ).xml;
    expect(cStatOf(await toSvrs(other))).toBe(455);
    const sameState = buildDeliveryFailureEvent(
      { ...head(note.accessKey, '92'), dhTentativaEntrega: minutesAgo(5), tpMotivo: 3, hashTentativaEntrega: deliveryImageHash(note.accessKey, 'eA==') },
      h.issuer.signingKey,
    ).xml;
    expect(cStatOf(await toSvrs(sameState))).toBe(135);
  });
});
