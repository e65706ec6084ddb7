import { beforeAll, describe, expect, it } from 'vitest';
import { migrateSimulator } from '../src/authority-sim/sim-migrations.js';
import { SimStore, type NewNote } from '../src/authority-sim/sim-store.js';
import { uniqueCnpj } from './support/authority-fixtures.js';
import { getTestDb } from './support/db.js';

let store: SimStore;
beforeAll(async () => {
  const db = await getTestDb();
  await migrateSimulator(db);
  store = new SimStore(db);
});

let seq = 0;
function note(cnpj: string, nnf: number, over: Partial<NewNote> = {}): NewNote {
  const key = (cnpj + String(nnf).padStart(9, '0') + String(seq++).padStart(8, '0')).padEnd(44, '0').slice(0, 44);
  return {
    access_key: key,
    cnpj,
    model: 65,
    serie: 1,
    nnf,
    tp_amb: 2,
    tp_emis: 1,
    status: 'authorized',
    c_stat: 100,
    n_prot: `p${Date.now()}-${seq++}`,
    authorized_at: new Date(),
    prot_xml: '<protNFe/>',
    ...over,
  };
}

describe('simulator store: claims made in one turn share one statement', () => {
  it('grants a key once and a number once, whatever else is in the batch', async () => {
    const cnpj = uniqueCnpj();
    const a = note(cnpj, 1);
    const b = note(cnpj, 2);
    // Same tick: the four claims are flushed together (group commit).
    const results = await Promise.all([
      store.claimNote(a),
      store.claimNote({ ...a, n_prot: a.n_prot + 'x' }),
      store.claimNote(b),
      store.claimNote(note(cnpj, 2)),
    ]);
    expect(results).toEqual([true, false, true, false]);
    expect(await store.grants(a.access_key)).toBe(1);
    expect(await store.obstacle(note(cnpj, 2))).toMatchObject({ kind: 'same-number', note: { access_key: b.access_key } });
    expect(await store.obstacle(a)).toMatchObject({ kind: 'same-key', note: { n_prot: a.n_prot } });
  });

  it('refuses a voided number in the claim, and a denial takes the number without a grant', async () => {
    const cnpj = uniqueCnpj();
    await store.insertVoid({ inutId: `ID${cnpj}x`, cnpj, model: 65, serie: 1, tpAmb: 2, from: 10, to: 12, nProt: 'v', retXml: '<x/>' });
    const [voided, denied] = await Promise.all([store.claimNote(note(cnpj, 11)), store.claimNote(note(cnpj, 13, { status: 'denied', c_stat: 110 }))]);
    expect(voided).toBe(false);
    expect(await store.obstacle(note(cnpj, 11))).toEqual({ kind: 'voided' });
    expect(denied).toBe(true);
    expect(await store.obstacle(note(cnpj, 13))).toMatchObject({ kind: 'same-number', note: { status: 'denied' } });
  });

  it('hands out distinct 15-digit protocol numbers, also across stores sharing the database', async () => {
    const other = new SimStore(await getTestDb());
    const at = new Date();
    const all = await Promise.all(Array.from({ length: 2500 }, (_, i) => (i % 2 ? store : other).nextProtocol('29', at)));
    expect(new Set(all).size).toBe(all.length);
    for (const p of all) expect(p).toMatch(/^129\d{12}$/);
  });

  it('serves a CSC registered through it at once (the cache is written through)', async () => {
    const cnpj = uniqueCnpj();
    expect((await store.cscs(cnpj, 2)).size).toBe(0);
    await store.upsertCsc(cnpj, 2, 3, 'X'.repeat(20), false);
    expect((await store.cscs(cnpj, 2)).get('3')).toEqual({ token: 'X'.repeat(20), revoked: false, revokedAt: null });
    // A revocation keeps the time it was first made (MOC ZX02-308 compares it with dhEmi).
    const at = new Date('2026-03-01T12:00:00Z');
    await store.upsertCsc(cnpj, 2, 3, 'X'.repeat(20), true, at);
    await store.upsertCsc(cnpj, 2, 3, 'X'.repeat(20), true, new Date('2026-03-02T12:00:00Z'));
    expect((await store.cscs(cnpj, 2)).get('3')).toEqual({ token: 'X'.repeat(20), revoked: true, revokedAt: at });
  });
});
