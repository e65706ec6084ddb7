import { beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../../bootstrap.js';
import { newId } from '../../../kernel/ids.js';
import { getTestDb, insertBareIssuer, testSchema } from '../../../../test/support/db.js';
import { openDb, type Db } from '../../../infra/storage/db.js';
import type { NewNote } from '../storage/note-repository.js';
import { releaseNumber, retireRange } from '../../../infra/storage/repositories/numbering-repository.js';
import { commitEmission, type EmissionDraft } from './emission-batches.js';

let db: Db;
beforeAll(async () => {
  db = await getTestDb();
  await prepareDatabase(db, { env: 'sandbox' });
});

const newIssuer = () => insertBareIssuer(db, 'Batch test');

/** A draft whose "document" is a stand-in: these tests are about numbers and rows, not XML. */
function draft(issuerId: string, o: { key?: string; refuse?: boolean; tried?: number[] } = {}): EmissionDraft {
  const now = new Date();
  const id = newId('nfce');
  return {
    series: { issuerId, model: 65, serie: 1 },
    accountId: 'acc_sandbox',
    now,
    work: { authorizeJob: 'nfce.authorize', label: 'NFC-e' },
    build: (nNF): NewNote => {
      o.tried?.push(nNF);
      if (o.refuse) throw new Error(`document for ${id} refused`);
      return {
        id, account_id: 'acc_sandbox', issuer_id: issuerId, external_ref: id, status: 'processing', model: 65, serie: 1, number: nNF,
        access_key: `${id}-${nNF}`, tp_amb: 2, tp_emis: 1, dh_emi: now.toISOString(), schema_package: 'PL_010',
        request: { n: nNF }, totals: { vNF: 1 }, items: [], signed_xml: `<NFe n="${nNF}"/>`, digest_value: 'x', qrcode_url: 'q',
        url_chave: 'u', scenario: null, idempotency_key: o.key ?? null, created_at: now,
      };
    },
  };
}

async function storedNumbers(issuerId: string): Promise<number[]> {
  const r = await db.query<{ number: number }>('SELECT number FROM notes WHERE issuer_id = $1 ORDER BY number', [issuerId]);
  return r.rows.map((x) => x.number);
}

describe('emission batches (group commit per series)', () => {
  it('concurrent sales of one series get consecutive numbers, each note with its history line and job', async () => {
    const issuerId = await newIssuer();
    const rows = await Promise.all(Array.from({ length: 50 }, () => commitEmission(db, draft(issuerId))));
    expect(rows.map((r) => r.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.id)).size).toBe(50);
    const work = await db.query<{ h: number; j: number }>(
      `SELECT (SELECT count(*)::int FROM note_history WHERE note_id = ANY($1)) AS h,
              (SELECT count(*)::int FROM jobs WHERE payload->>'noteId' = ANY($1)) AS j`,
      [rows.map((r) => r.id)],
    );
    expect(work.rows[0]).toEqual({ h: 50, j: 50 });
  });

  it('a refused document fails alone and its number goes to the next sale: no gap', async () => {
    const issuerId = await newIssuer();
    const results = await Promise.allSettled(
      [false, true, false, true, false].map((refuse) => commitEmission(db, draft(issuerId, { refuse }))),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/refused/);
    expect(await storedNumbers(issuerId)).toEqual([1, 2, 3]);
    // The next sale continues the series without a hole.
    expect((await commitEmission(db, draft(issuerId))).number).toBe(4);
  });

  it('a batch where every document is refused consumes no number', async () => {
    const issuerId = await newIssuer();
    await Promise.allSettled([1, 2, 3].map(() => commitEmission(db, draft(issuerId, { refuse: true }))));
    expect((await commitEmission(db, draft(issuerId))).number).toBe(1);
  });

  it('two sales with one Idempotency-Key in one batch: one note, the other fails alone and the rest are stored', async () => {
    const issuerId = await newIssuer();
    const key = `k-${newId('nfce')}`;
    const results = await Promise.allSettled([
      commitEmission(db, draft(issuerId)),
      commitEmission(db, draft(issuerId, { key })),
      commitEmission(db, draft(issuerId, { key })),
      commitEmission(db, draft(issuerId)),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((failed.reason as { code?: string }).code).toBe('23505');
    expect(await storedNumbers(issuerId)).toEqual([1, 2, 3]);
  });

  it('released numbers are used first, lowest first, then the counter', async () => {
    const issuerId = await newIssuer();
    await Promise.all(Array.from({ length: 6 }, () => commitEmission(db, draft(issuerId))));
    // Notes 2 and 5 were rejected by the authority: their numbers come back.
    await db.query(`UPDATE notes SET status = 'rejected' WHERE issuer_id = $1 AND number IN (2, 5)`, [issuerId]);
    const s = { issuerId, model: 65, serie: 1 };
    await releaseNumber(db, s, 5, new Date());
    await releaseNumber(db, s, 2, new Date());
    const rows = await Promise.all(Array.from({ length: 3 }, () => commitEmission(db, draft(issuerId))));
    expect(rows.map((r) => r.number).sort((a, b) => a - b)).toEqual([2, 5, 7]);
  });

  it('when the series moved behind this process (another process, a voided range), the sale is built again from where it is', async () => {
    const issuerId = await newIssuer();
    for (let i = 0; i < 3; i++) await commitEmission(db, draft(issuerId));
    // As an inutilization of 4-9 by another process would leave it.
    await db.query(`UPDATE number_sequences SET next_number = 10 WHERE issuer_id = $1`, [issuerId]);
    const tried: number[] = [];
    expect((await commitEmission(db, draft(issuerId, { tried }))).number).toBe(10);
    // Signed first for the number this process expected; that statement stored nothing.
    expect(tried).toEqual([4, 10]);
    expect(await storedNumbers(issuerId)).toEqual([1, 2, 3, 10]);
    const seq = await db.query<{ next_number: number }>('SELECT next_number FROM number_sequences WHERE issuer_id = $1', [issuerId]);
    expect(seq.rows[0]!.next_number).toBe(11);
  });

  it('a range voided ahead after this process last sold on the series is stepped over, the numbers before it still issued', async () => {
    const issuerId = await newIssuer();
    for (let i = 0; i < 3; i++) await commitEmission(db, draft(issuerId));
    const s = { issuerId, model: 65, serie: 1 };
    await db.transaction((tx) => retireRange(tx, s, 5, 6));
    const tried: number[] = [];
    const rows = [];
    for (let i = 0; i < 3; i++) rows.push(await commitEmission(db, draft(issuerId, { tried })));
    expect(rows.map((r) => r.number)).toEqual([4, 7, 8]);
    // The cached state had no voided range: the first statement stored nothing (the counter's row changed).
    expect(tried).toEqual([4, 4, 7, 8]);
    expect(await storedNumbers(issuerId)).toEqual([1, 2, 3, 4, 7, 8]);
  });

  it('a number released after this process last sold on the series goes to the next sale', async () => {
    const issuerId = await newIssuer();
    for (let i = 0; i < 4; i++) await commitEmission(db, draft(issuerId));
    await db.query(`UPDATE notes SET status = 'rejected' WHERE issuer_id = $1 AND number = 3`, [issuerId]);
    await releaseNumber(db, { issuerId, model: 65, serie: 1 }, 3, new Date());
    const tried: number[] = [];
    expect((await commitEmission(db, draft(issuerId, { tried }))).number).toBe(3);
    expect(tried).toEqual([5, 3]);
    expect((await commitEmission(db, draft(issuerId))).number).toBe(5);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('two processes selling on one series at once: every number once, no gap (skipped: needs TEST_DATABASE_URL)', async () => {
    // A second storage handle is what a second gateway process has: its own pool and its own idea
    // of where the series stands, so most of its first tries find the series moved.
    const other = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL, poolSize: 5, schema: testSchema });
    try {
      const issuerId = await newIssuer();
      const rows = await Promise.all(Array.from({ length: 120 }, (_, i) => commitEmission(i % 2 ? other : db, draft(issuerId))));
      expect(rows.map((r) => r.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      expect(await storedNumbers(issuerId)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    } finally {
      await other.close();
    }
  });

  it('a batch whose answer was lost (the connection failed after the database stored it) answers with the stored notes, never storing them twice', async () => {
    const issuerId = await newIssuer();
    // The database stores what the first two statements carry, and their answers are lost on the way
    // back: a sale alone and its retry, or a batch; either way the outcome is unknown to the caller.
    const lost = [1, 2];
    let inserts = 0;
    const lossy: Db = {
      ...db,
      async query<R>(sql: string, params?: readonly unknown[]) {
        const r = await db.query<R>(sql, params);
        if (sql.includes('INSERT INTO notes') && lost.includes(++inserts)) throw new Error('Connection terminated unexpectedly');
        return r;
      },
    };
    const rows = await Promise.all([1, 2, 3].map(() => commitEmission(lossy, draft(issuerId))));
    // Each sale whose answer was lost was tried again alone and answered with the note already stored.
    expect(rows.map((r) => r.number)).toEqual([1, 2, 3]);
    expect(await storedNumbers(issuerId)).toEqual([1, 2, 3]);
  });
});
