import type { EventOutcome } from '../src/fiscal/sefaz/outcomes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedNfce, uniqueCnpj } from './support/authority-fixtures.js';
import { signedCancellation, signedInutilization } from './support/authority-events.js';
import { BA, registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';

let h: AuthorityHarness;
let cnpj: string;
let nNF = 1;

beforeAll(async () => {
  h = await startAuthorityHarness();
  cnpj = uniqueCnpj();
  await registerTestCsc(h.sim, cnpj);
});
afterAll(() => h.close());

async function authorized() {
  const { xml, accessKey } = signedNfce(h.issuer, { cnpj, nNF: nNF++ });
  const out = await h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 7 });
  if (out.kind !== 'authorized') throw new Error(`not authorized: ${JSON.stringify(out)}`);
  return { accessKey, nProt: out.protocol.info.nProt!, nNF: nNF - 1 };
}
const cStatOf = (o: EventOutcome) => ('cStat' in o ? o.cStat : null);
const send = (xml: string) => h.client.sendEvent({ ...BA, signedEventXml: xml, idLote: 1 });

describe('events (NFeRecepcaoEvento4)', () => {
  it('registers a cancellation (135) and the consultation then answers 101 with the event', async () => {
    const note = await authorized();
    const out = await send(signedCancellation(h.issuer, { cnpj, ...note }));
    expect(out.kind === 'registered' && out.event.cStat).toBe(135);
    expect(out.kind === 'registered' && out.event.nProt).toMatch(/^[0-9]{15}$/);
    const known = await h.client.consult({ ...BA, accessKey: note.accessKey });
    expect(known.kind).toBe('canceled');
    expect(known.kind === 'canceled' && known.cStat).toBe(101);
    expect(known.kind === 'canceled' && known.events[0]).toContain('<tpEvento>110111</tpEvento>');
  });

  it('573 for the same event twice, 420 for cancelling a canceled note', async () => {
    const note = await authorized();
    const cancel = signedCancellation(h.issuer, { cnpj, ...note });
    expect(cStatOf(await send(cancel))).toBe(135);
    expect(cStatOf(await send(cancel))).toBe(573);
    const bySubstitution = signedCancellation(h.issuer, { cnpj, ...note, tpEvento: '110112' });
    expect(cStatOf(await send(bySubstitution))).toBe(420);
  });

  it('580 for an event on a key the authority never authorized', async () => {
    const { accessKey } = signedNfce(h.issuer, { cnpj, nNF: 90_000 });
    const out = await send(signedCancellation(h.issuer, { cnpj, accessKey, nProt: '129260000000001' }));
    expect(out.kind).toBe('rejected');
    expect(out.kind === 'rejected' && out.cStat).toBe(580);
  });

  it('501 for an NFC-e cancellation more than 30 minutes after authorization', async () => {
    const note = await authorized();
    h.sim.setClock(() => new Date(Date.now() + 31 * 60_000));
    try {
      expect(cStatOf(await send(signedCancellation(h.issuer, { cnpj, ...note })))).toBe(501);
    } finally {
      h.sim.setClock(() => new Date());
    }
  });

  it('574 for a cancellation whose author is not the issuer named in the key', async () => {
    const note = await authorized();
    // Signed and well formed, authored by another CNPJ: the signature holds, the author does not.
    expect(cStatOf(await send(signedCancellation(h.issuer, { cnpj: uniqueCnpj(), ...note })))).toBe(574);
    expect(cStatOf(await send(signedCancellation(h.issuer, { cnpj, ...note })))).toBe(135);
  });

  it('297 for an event altered after signing', async () => {
    const note = await authorized();
    const tampered = signedCancellation(h.issuer, { cnpj, ...note }).replace('Venda cancelada', 'Venda cancelado');
    expect(cStatOf(await send(tampered))).toBe(297);
  });
});

describe('inutilization (NFeInutilizacao4)', () => {
  it('voids an unused range (102, signed answer), then 563 for the same range and 256 for an overlapping one', async () => {
    const first = await h.client.inutilize({ ...BA, signedInutNFeXml: signedInutilization(h.issuer, { cnpj, from: 500, to: 510 }) });
    expect(first.kind).toBe('voided');
    expect(first.kind === 'voided' && first.retInutNFeXml).toContain('<Signature');
    const same = await h.client.inutilize({ ...BA, signedInutNFeXml: signedInutilization(h.issuer, { cnpj, from: 500, to: 510 }) });
    expect(same.kind === 'rejected' && same.cStat).toBe(563);
    const overlap = await h.client.inutilize({ ...BA, signedInutNFeXml: signedInutilization(h.issuer, { cnpj, from: 505, to: 520 }) });
    expect(overlap.kind === 'rejected' && overlap.cStat).toBe(256);
  });

  it('241 when a number of the range was already authorized', async () => {
    const note = await authorized();
    const out = await h.client.inutilize({
      ...BA,
      signedInutNFeXml: signedInutilization(h.issuer, { cnpj, from: note.nNF, to: note.nNF + 2 }),
    });
    expect(out.kind === 'rejected' && out.cStat).toBe(241);
  });
});

describe('status and consultation', () => {
  it('107 from the status service; 217 for an unknown key; 100 with the same protocol for an authorized one', async () => {
    const status = await h.client.status(BA);
    expect(status.kind === 'in-operation' && status.cStat).toBe(107);
    const { accessKey } = signedNfce(h.issuer, { cnpj, nNF: 91_000 });
    expect((await h.client.consult({ ...BA, accessKey })).kind).toBe('not-found');
    const note = await authorized();
    const known = await h.client.consult({ ...BA, accessKey: note.accessKey });
    expect(known.kind === 'authorized' && known.protocol.info.nProt).toBe(note.nProt);
  });
});
