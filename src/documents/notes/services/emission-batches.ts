import type { Note } from '../domain/note.js';
import { sqlState, type Db } from '../../../infra/storage/db.js';
import { isIssuerChanged } from '../../../infra/storage/repositories/issuer-repository.js';
import { getNote, insertNotes, type IssuerBasis, type NewNote } from '../storage/note-repository.js';
import {
  isSeriesMoved,
  readSeriesState,
  releaseNumbers,
  reserveNumbers,
  type Series,
  type SeriesState,
} from '../../../infra/storage/repositories/numbering-repository.js';
import { nthNumber, takeNumbers } from '../../../infra/storage/repositories/number-skips.js';
import { ApiError } from '../../../kernel/errors.js';

/** A validated sale waiting for its number: everything is known but the number. */
export interface EmissionDraft {
  series: Series;
  accountId: string;
  /** When the sale was accepted (the clock of the request). */
  now: Date;
  /** The issuer state the note is built from: the note is stored only while it is unchanged. */
  issuer?: IssuerBasis | undefined;
  /** The job that authorizes the note, and how its first history line names it (`NFC-e`, `NF-e`). */
  work: { authorizeJob: string; label: string };
  /**
   * Builds, signs and checks the note for its number; throws (ApiError) when the document is refused.
   * Called again with other numbers when the batch is rebuilt (the series moved), so the sale's own
   * work - validation, items, totals - is done once before the draft exists (prepareNfce), not here.
   */
  build(nNF: number): NewNote;
}

interface Waiting {
  draft: EmissionDraft;
  /** The id of the note once built (the same on every rebuild: a note can only be stored once). */
  noteId?: string;
  resolve(row: Note): void;
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
// Where each series stood after this process's last emission on it: the next batch builds from it.
const statesByDb = new WeakMap<Db, Map<string, SeriesState>>();
const MAX_STATES = 10_000;
// Optimistic tries before a batch takes the series' lock for its whole build instead (another
// process is emitting on the same series at the same moment).
const OPTIMISTIC_TRIES = 2;

/**
 * Group commit of sales per series (docs/decisions.md#numbering). The series counter is locked from the
 * moment a number is taken until the note is committed, so one series can only move one
 * transaction at a time. Sales that arrive while a transaction of their series is open wait and
 * then share the next one. At low load a batch is one sale and nothing waits.
 *
 * The numbers are taken optimistically: the batch is built and signed for the numbers the series'
 * last known state gives, then ONE statement stores the notes with their history and jobs and
 * moves the counter, provided the series is still where it was (insertNotes). So a sale costs one
 * round trip, and the counter's row is locked only while that statement runs, not while documents
 * are signed. When the series moved (another process emitted on it, a number was released, a range
 * was voided) nothing was stored: the batch is built again from the series' real state, and after
 * OPTIMISTIC_TRIES the batch holds the series' lock for its whole build (commitBatchLocked).
 */
export function commitEmission(db: Db, draft: EmissionDraft): Promise<Note> {
  let queues = queuesByDb.get(db);
  if (!queues) queuesByDb.set(db, (queues = new Map()));
  const key = seriesKey(draft.series);
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = { waiting: [], busy: false }));
  const promise = new Promise<Note>((resolve, reject) => queue.waiting.push({ draft, resolve, reject }));
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
        // Every sale of the batch was built from an issuer that changed (each caller reads it again
        // and builds anew), or one sale alone that the database refused (a SQLSTATE: no effect).
        if (isIssuerChanged(err) || (batch.length === 1 && sqlState(err) !== undefined)) {
          for (const w of batch) w.reject(err);
          continue;
        }
        // One sale spoiled the batch (e.g. its Idempotency-Key was taken meanwhile by another
        // process), or the connection failed and the outcome is unknown: each goes (again) alone,
        // so only the spoiler fails. A note the lost statement did store is found by its id and
        // answers; it is never stored twice.
        for (const w of batch) await commitBatch(db, [w]).catch((e: unknown) => settleAlreadyStored(db, w, e));
      }
    }
  } finally {
    queue.busy = false;
    if (queue.waiting.length === 0) queues.delete(key);
    else void drain(db, queues, key, queue);
  }
}

/** A sale retried alone whose note is already stored (an earlier answer was lost) answers with it. */
async function settleAlreadyStored(db: Db, w: Waiting, err: unknown): Promise<void> {
  const stored = w.noteId && (err as { constraint?: string }).constraint === 'notes_pkey'
    ? await getNote(db, w.draft.accountId, w.noteId).catch(() => undefined)
    : undefined;
  if (stored) w.resolve(stored);
  else w.reject(err);
}

/** A retired series numbers no sale (the request's `series`, or series 1 when it names none). */
function retiredSeries(s: Series): ApiError {
  return new ApiError('validation_error', `Series ${s.serie} of model ${s.model} is retired: name another series`, [
    { field: 'series', message: `series ${s.serie} was retired (PATCH /v1/issuers/${s.issuerId}/series/${s.model}/${s.serie} with retired false opens it again)` },
  ]);
}

const seriesKey = (s: Series) => `${s.issuerId}:${s.model}:${s.serie}`;

/** The distinct issuer states a batch was built from. */
function issuerBases(batch: readonly Waiting[]): IssuerBasis[] | undefined {
  const bases = new Map<string, IssuerBasis>();
  for (const { draft } of batch) if (draft.issuer) bases.set(`${draft.issuer.issuerId}\u0000${draft.issuer.basis}`, draft.issuer);
  return bases.size > 0 ? [...bases.values()] : undefined;
}

/** Optimistic first (one statement), then under the series' lock. */
async function commitBatch(db: Db, batch: Waiting[]): Promise<void> {
  const { series } = batch[0]!.draft;
  const key = seriesKey(series);
  let states = statesByDb.get(db);
  if (!states) statesByDb.set(db, (states = new Map()));
  for (let attempt = 0; attempt < OPTIMISTIC_TRIES; attempt++) {
    const state = states.get(key) ?? (await readSeriesState(db, series));
    states.delete(key); // unknown until this statement's outcome is
    if (state.retired) {
      for (const w of batch) w.reject(retiredSeries(series));
      return;
    }
    // Candidate numbers in the order reserveNumbers gives them: released ones (lowest first), then the
    // counter, stepping over numbers voided ahead of it (number-skips.ts).
    const candidate = (i: number) => (i < state.released.length ? state.released[i]! : nthNumber(state, i - state.released.length));
    const built: Array<{ w: Waiting; note: NewNote }> = [];
    const refused: Array<{ w: Waiting; err: unknown }> = [];
    for (const w of batch) {
      try {
        // A refused document leaves its candidate number to the next sale: no gap.
        const note = w.draft.build(candidate(built.length));
        w.noteId = note.id;
        built.push({ w, note });
      } catch (err) {
        refused.push({ w, err });
      }
    }
    if (built.length === 0) {
      states.set(key, state);
      for (const { w, err } of refused) w.reject(err);
      return;
    }
    const released = state.released.slice(0, built.length);
    const expected = { next: state.next, skips: state.skips };
    const updated = built.length > released.length ? takeNumbers(expected, built.length - released.length).after : expected;
    let rows: Note[];
    try {
      rows = await insertNotes(db, built.map((b) => b.note), noteWork(batch), {
        numbering: { series, expected, updated, released },
        issuers: issuerBases(batch),
      });
    } catch (err) {
      if (isSeriesMoved(err)) continue;
      throw err;
    }
    if (states.size >= MAX_STATES) states.delete(states.keys().next().value as string);
    states.set(key, { ...updated, released: state.released.slice(released.length), retired: false });
    built.forEach((b, i) => b.w.resolve(rows[i]!));
    for (const { w, err } of refused) w.reject(err);
    return;
  }
  await commitBatchLocked(db, batch);
}

/** The first history line and the authorization job of every note of a batch (one series: one model). */
function noteWork(batch: readonly Waiting[]) {
  const { work } = batch[0]!.draft;
  return {
    history: (n: NewNote) => ({ type: 'created', message: `${work.label} ${n.number} series ${n.serie} signed` }),
    // Attempts count every reschedule while the authority is down: a sale must outlast a long outage.
    job: { kind: work.authorizeJob, maxAttempts: 10_000 },
  };
}

/**
 * One transaction holding the series' counter from the number to the commit: the numbers cannot
 * move under the build. A sale whose document is refused hands its number to the next.
 */
async function commitBatchLocked(db: Db, batch: Waiting[]): Promise<void> {
  const { series } = batch[0]!.draft;
  const refused: Array<{ w: Waiting; err: unknown }> = [];
  const stored = await db.transaction(async (tx) => {
    const numbers = await reserveNumbers(tx, series, batch.length);
    const built: Array<{ w: Waiting; note: NewNote }> = [];
    for (const w of batch) {
      try {
        const note = w.draft.build(numbers[built.length]!);
        w.noteId = note.id;
        built.push({ w, note });
      } catch (err) {
        refused.push({ w, err });
      }
    }
    // Numbers the refused sales did not use go back to the pool in the same transaction: no gap.
    if (built.length < numbers.length) await releaseNumbers(tx, series, numbers.slice(built.length), batch[0]!.draft.now);
    if (built.length === 0) return [];
    const rows = await insertNotes(tx, built.map((b) => b.note), noteWork(batch), { issuers: issuerBases(batch) });
    return built.map((b, i) => ({ w: b.w, row: rows[i]! }));
  });
  for (const { w, row } of stored) w.resolve(row);
  for (const { w, err } of refused) w.reject(err);
}
