import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedNfce, uniqueCnpj } from './support/authority-fixtures.js';
import { signedCancellation } from './support/authority-events.js';
import { BA, registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';

// The database rules of MOC 7.0 section 4.2.1 the breaker table (support/breakers-qr-records.ts)
// excludes because they need the authority's own records: driven through the simulator's service.

let h: AuthorityHarness;
let cnpj: string;
let nNF = 1;

beforeAll(async () => {
  h = await startAuthorityHarness();
  cnpj = uniqueCnpj();
  await registerTestCsc(h.sim, cnpj);
});
afterAll(() => h.close());

const authorize = (xml: string) => h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1 });

describe('the authority\'s notes (group 2)', () => {
  it('2B08-30 (218): the key of a canceled note sent again', async () => {
    const n = nNF++;
    const { xml, accessKey } = signedNfce(h.issuer, { cnpj, nNF: n });
    const first = await authorize(xml);
    if (first.kind !== 'authorized') throw new Error(JSON.stringify(first));
    const cancel = await h.client.sendEvent({
      ...BA, idLote: 1, signedEventXml: signedCancellation(h.issuer, { cnpj, accessKey, nProt: first.protocol.info.nProt! }),
    });
    expect(cancel.kind === 'registered' && cancel.event.cStat).toBe(135);
    const again = await authorize(xml);
    expect('cStat' in again && again.cStat).toBe(218);
    expect('xMotivo' in again && again.xMotivo).toBe('NF-e já está cancelada na base de dados da SEFAZ');
    // Another key for the canceled number is still 539 (2B08-10 comes first in the table).
    const other = await authorize(signedNfce(h.issuer, { cnpj, nNF: n, cNF: '24681357' }).xml);
    expect('cStat' in other && other.cStat).toBe(539);
  });
});
