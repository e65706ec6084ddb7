import type { Note, NoteStatus } from '../domain/note.js';
import { notFound } from '../../../kernel/errors.js';
import { page } from '../../../kernel/page.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { getNote, listHistory, listNoteRows } from '../storage/note-repository.js';
import type { NoteFamily } from './note-family.js';
import { waitUntilCancellationSettled, waitUntilSettled } from './note-settled.js';

type ReadDeps = Pick<Ports, 'db'>;

/** GET /v1/nfce's and /v1/nfe's filters; dates as ISO 8601 text. */
export interface NoteListQuery {
  limit?: number;
  starting_after?: string;
  issuer_id?: string;
  status?: NoteStatus;
  external_ref?: string;
  'created_at[gte]'?: string;
  'created_at[lt]'?: string;
}

/** The account's note, or 404 (also for a note of another account). `full` includes the XML documents. */
export async function findNote(deps: ReadDeps, family: NoteFamily, accountId: string, id: string, opts: { full?: boolean } = {}): Promise<Note> {
  const row = await getNote(deps.db, accountId, id, { ...opts, model: family.model });
  if (!row) throw notFound(family.label);
  return row;
}

/** A page of the account's notes, newest first. */
export async function listNotesPage(deps: ReadDeps, family: NoteFamily, accountId: string, q: NoteListQuery) {
  const limit = q.limit ?? 20;
  const rows = await listNoteRows(deps.db, accountId, {
    limit: limit + 1,
    model: family.model,
    issuerId: q.issuer_id,
    status: q.status,
    externalRef: q.external_ref,
    createdGte: q['created_at[gte]'] ? new Date(q['created_at[gte]']) : undefined,
    createdLt: q['created_at[lt]'] ? new Date(q['created_at[lt]']) : undefined,
    startingAfter: q.starting_after,
  });
  return page(rows, limit);
}

/** The note's history, oldest first. */
export async function noteHistory(deps: ReadDeps, family: NoteFamily, accountId: string, id: string) {
  await findNote(deps, family, accountId, id);
  const entries = await listHistory(deps.db, id);
  return entries.map((e) => ({ ...e, at: e.at.toISOString() }));
}

/** The note once its authorization settles, or as it stands after `ms` (`Prefer: wait`). */
export async function noteWhenSettled(deps: ReadDeps, family: NoteFamily, accountId: string, id: string, ms: number): Promise<Note> {
  await waitUntilSettled(deps.db, id, ms);
  return findNote(deps, family, accountId, id);
}

/** The note once a requested cancellation is registered or refused, or as it stands after `ms`. */
export async function noteWhenCancellationSettled(deps: ReadDeps, family: NoteFamily, accountId: string, id: string, ms: number): Promise<Note> {
  await waitUntilCancellationSettled(deps.db, id, ms);
  return findNote(deps, family, accountId, id);
}
