import type { Db } from '../../storage/db.js';
import { insertNfces, releaseExpiredIdempotencyKeys, type NewNfce, type NfceRow } from '../../storage/repositories/nfce-repository.js';
import { releaseNumbers, reserveNumbers, type Series } from '../../storage/repositories/numbering-repository.js';
import { AUTHORIZE_JOB } from './nfce-deps.js';

/** A validated sale waiting for its number: everything is known but the number. */
export interface EmissionDraft {
  series: Series;
  accountId: string;
  /** When the sale was accepted (the clock of the request). */
  now: Date;
  /** Set when the sale came with an Idempotency-Key: an expired holder of the key lets go of it. */
  idempotency?: { key: string; liveSince: Date } | undefined;
  /** Builds, signs and checks the note for its number; throws (ApiError) when the document is refused. */
  build(nNF: number): NewNfce;
}

interface Waiting {
  draft: EmissionDraft;
  resolve(row: NfceRow): void;
  reject(err: unknown): void;
}

interface SeriesQueue {
  waiting: Waiting[];
  busy: boolean;
}

// Enough to amortise the round trips; small enough that the counter's lock is held a few ms.
const MAX_BATCH = 32;

// Per storage handle (one per process in production; tests open several).
const queuesByDb = new WeakMap<Db, Map<string, SeriesQueue>>();

/**
 * Group commit of sales per series (DESIGN 4 "Numbering"). The series counter is locked from the
 * moment a number is taken until the note is committed, so one series can only move one
 * transaction at a time. Sales that arrive while a transaction of their series is open wait and
 * then share the next one: numbers taken in one statement, the notes with their history and jobs
 * inserted in one, one commit. At low load a batch is one sale and nothing waits.
 */
export function commitEmission(db: Db, draft: EmissionDraft): Promise<NfceRow> {
  let queues = queuesByDb.get(db);
  if (!queues) queuesByDb.set(db, (queues = new Map()));
  const key = `${draft.series.issuerId}:${draft.series.model}:${draft.series.serie}`;
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = { waiting: [], busy: false }));
  const promise = new Promise<NfceRow>((resolve, reject) => queue.waiting.push({ draft, resolve, reject }));
  if (!queue.busy) void drain(db, queues, key, queue);
  return promise;
}

async function drain(db: Db, queues: Map<string, SeriesQueue>, key: string, queue: SeriesQueue): Promise<void> {
  queue.busy = true;
  try {
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0, MAX_BATCH);
      try {
        await commitBatch(db, batch);
      } catch (err) {
        if (batch.length === 1) {
          batch[0]!.reject(err);
          continue;
        }
        // One sale spoiled the batch (e.g. its Idempotency-Key was taken meanwhile by another
        // process): each goes alone, so only that one fails and the others are not held back.
        for (const w of batch) await commitBatch(db, [w]).catch((e: unknown) => w.reject(e));
      }
    }
  } finally {
    queue.busy = false;
    if (queue.waiting.length === 0) queues.delete(key);
    else void drain(db, queues, key, queue);
  }
}

/** One transaction for the batch; a sale whose document is refused hands its number to the next. */
async function commitBatch(db: Db, batch: Waiting[]): Promise<void> {
  const { series, accountId } = batch[0]!.draft;
  const refused: Array<{ w: Waiting; err: unknown }> = [];
  const stored = await db.transaction(async (tx) => {
    const keyed = batch.flatMap((w) => (w.draft.idempotency ? [w.draft.idempotency] : []));
    if (keyed.length > 0) await releaseExpiredIdempotencyKeys(tx, accountId, keyed);
    const numbers = await reserveNumbers(tx, series, batch.length);
    const built: Array<{ w: Waiting; note: NewNfce }> = [];
    for (const w of batch) {
      try {
        built.push({ w, note: w.draft.build(numbers[built.length]!) });
      } catch (err) {
        refused.push({ w, err });
      }
    }
    // Numbers the refused sales did not use go back to the pool in the same transaction: no gap.
    if (built.length < numbers.length) await releaseNumbers(tx, series, numbers.slice(built.length), batch[0]!.draft.now);
    if (built.length === 0) return [];
    const rows = await insertNfces(
      tx,
      built.map((b) => b.note),
      {
        history: (n) => ({ type: 'created', message: `NFC-e ${n.number} series ${n.serie} signed` }),
        // Attempts count every reschedule while the authority is down: a sale must outlast a long outage.
        job: { kind: AUTHORIZE_JOB, maxAttempts: 10_000 },
      },
    );
    return built.map((b, i) => ({ w: b.w, row: rows[i]! }));
  });
  for (const { w, row } of stored) w.resolve(row);
  for (const { w, err } of refused) w.reject(err);
}
