import type { ExportKind } from './storage/export-repository.js';

/** The job that builds an export (worker/handlers/exports-build.ts). */
export const EXPORT_JOB = 'exports.build';

/** The daily job that ends the ZIPs past their time (platform/exports/expire-exports.ts). */
export const EXPORT_EXPIRE_JOB = 'exports.expire';

/** Days a ready export's ZIP is kept; then it expires and asking again builds it anew. */
export const EXPORT_KEEP_DAYS = 7;

/** What an export may hold; all of them when the request names none. */
export const EXPORT_KINDS: readonly ExportKind[] = ['nfce', 'nfe', 'nfse', 'inutilization', 'received'];

/** A ZIP larger than this fails (`export_too_large`): ask again with fewer `kinds`. Well under the 4 GiB of a ZIP without ZIP64 sizes. */
export const EXPORT_MAX_BYTES = 1024 * 1024 * 1024;

/** The ZIP is stored and streamed in pieces of this size (export_chunks). */
export const EXPORT_CHUNK_BYTES = 1024 * 1024;

/** Rows read per query while building: bounds the XML held in memory at once. */
export const EXPORT_PAGE_ROWS = 200;

/** Build attempts before the export is marked failed. */
export const EXPORT_MAX_ATTEMPTS = 5;

/** Document models of the note kinds asked (55 NF-e, 65 NFC-e, 99 the NFS-e's DPS numbering); voided ranges are of 55 and 65. */
export function modelsOf(kinds: readonly ExportKind[]): { notes: number[]; voids: number[] } {
  const notes: number[] = [];
  if (kinds.includes('nfce')) notes.push(65);
  if (kinds.includes('nfe')) notes.push(55);
  if (kinds.includes('nfse')) notes.push(99);
  return { notes, voids: kinds.includes('inutilization') ? [55, 65] : [] };
}

/** The month as YYYY-MM; a calendar month that has begun (São Paulo time), not one to come. */
export function monthProblem(month: string, now: Date): string | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) return 'must be a month as YYYY-MM, e.g. 2026-10';
  const spNow = new Date(now.getTime() - 3 * 3600_000).toISOString().slice(0, 7);
  if (month > spNow) return `${month} has not begun (it is ${spNow} in Brasília time)`;
  if (Number(m[1]) < 2000) return 'must be 2000-01 or later';
  return null;
}
