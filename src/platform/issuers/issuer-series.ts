import { ApiError, notFound } from '../../kernel/errors.js';
import { DEFAULT_SERIES, SERIES_MODELS, type SeriesModel } from '../../fiscal/layout/series-range.js';
import { timeZoneOf } from '../../fiscal/layout/ibge.js';
import { localDateTime } from '../../fiscal/layout/local-time.js';
import { findIssuer } from '../../infra/storage/repositories/issuer-repository.js';
import type { RegisteredIssuer } from '../../kernel/issuer.js';
import { normalize, type Skip } from '../../infra/storage/repositories/number-skips.js';
import { ensureSeriesRow, listSeriesRows, lockSeriesRow, voidedRanges, writeSeries, type SeriesRow } from './storage/series-repository.js';
import type { Ports } from '../ports/ports.js';
import { assertIssuerActive } from './archive-issuer.js';

type Deps = Pick<Ports, 'db' | 'clock'>;

/** A series as the API shows it. */
export interface SeriesRecord {
  object: 'series';
  issuer_id: string;
  model: SeriesModel;
  series: number;
  /** The number the next sale of the series takes (a released number, when a rejected sale left one, goes first). */
  next_number: number;
  highest_used: number | null;
  /** Ranges voided (inutilizados) ahead of next_number: the counter steps over them. */
  voided_ahead: Array<{ from: number; to: number }>;
  status: 'active' | 'retired';
  /** Series 1: every issuer has it, sales naming no series are numbered in it. */
  default: boolean;
  created_at: string | null;
  retired_at: string | null;
}

/** PATCH's answer: the series, and the numbers the move skipped, to be voided by `void_by` (docs/fiscal/series.md). */
export interface SeriesChange extends SeriesRecord {
  gaps: Array<{ from: number; to: number }>;
  void_by: string | null;
}

const ranges = (skips: Skip[]) => skips.map(([from, to]) => ({ from, to }));

function present(issuerId: string, row: SeriesRow): SeriesRecord {
  return {
    object: 'series', issuer_id: issuerId, model: row.model as SeriesModel, series: row.serie, next_number: row.next_number,
    highest_used: row.highest_used, voided_ahead: ranges(row.skips), status: row.retired_at ? 'retired' : 'active',
    default: row.serie === DEFAULT_SERIES, created_at: row.created_at?.toISOString() ?? null, retired_at: row.retired_at?.toISOString() ?? null,
  };
}

/** A series of the models the API manages counts as the issuer's when it was created, or is the default one. */
const isOpen = (row: SeriesRow) => row.serie === DEFAULT_SERIES || row.created_at !== null;

async function issuerOf(deps: Deps, accountId: string, issuerId: string): Promise<RegisteredIssuer> {
  const issuer = await findIssuer(deps.db, accountId, issuerId);
  if (!issuer) throw notFound('Issuer');
  return issuer;
}

/** GET /v1/issuers/:id/series: the default series of each model and every series created, by model and number. */
export async function listSeries(deps: Deps, accountId: string, issuerId: string): Promise<SeriesRecord[]> {
  await issuerOf(deps, accountId, issuerId);
  const rows = (await listSeriesRows(deps.db, issuerId, SERIES_MODELS)).filter(isOpen);
  for (const model of SERIES_MODELS) {
    if (!rows.some((r) => r.model === model && r.serie === DEFAULT_SERIES)) {
      rows.push({ model, serie: DEFAULT_SERIES, next_number: 1, skips: [], created_at: null, retired_at: null, highest_used: null });
    }
  }
  rows.sort((a, b) => a.model - b.model || a.serie - b.serie);
  return rows.map((r) => present(issuerId, r));
}

/** Whether a sale may name this series: created through the API (or the default one) and not retired. */
export async function seriesProblem(deps: Pick<Ports, 'db'>, issuerId: string, model: number, serie: number): Promise<string | null> {
  if (serie === DEFAULT_SERIES) return null;
  const [row] = (await listSeriesRows(deps.db, issuerId, [model])).filter((r) => r.serie === serie && r.created_at !== null);
  if (!row) return `the issuer has no series ${serie} of model ${model}: create it with POST /v1/issuers/${issuerId}/series`;
  return row.retired_at ? `series ${serie} of model ${model} is retired` : null;
}

export interface SeriesInput {
  model: SeriesModel;
  series: number;
  next_number?: number | undefined;
}

/** POST /v1/issuers/:id/series: opens a series at next_number (default: after every number it used or voided). */
export async function createSeries(deps: Deps, accountId: string, issuerId: string, input: SeriesInput): Promise<SeriesChange> {
  const issuer = await issuerOf(deps, accountId, issuerId);
  assertIssuerActive(issuer);
  if (input.series === DEFAULT_SERIES) throw seriesExists(input);
  return changeSeries(deps, issuer, input.model, input.series, (row, floor) => {
    if (row.created_at) throw seriesExists(input);
    return { next: input.next_number ?? Math.max(row.next_number, floor + 1), createdAt: deps.clock.now(), retiredAt: null };
  });
}

/** PATCH /v1/issuers/:id/series/:model/:series: moves next_number (never onto a used or voided number) and retires or reopens. */
export async function updateSeries(
  deps: Deps, accountId: string, issuerId: string, model: SeriesModel, serie: number, input: { next_number?: number | undefined; retired?: boolean | undefined },
): Promise<SeriesChange> {
  const issuer = await issuerOf(deps, accountId, issuerId);
  assertIssuerActive(issuer);
  return changeSeries(deps, issuer, model, serie, (row) => {
    if (!isOpen(row)) throw notFound('Series');
    const retiredAt = input.retired === undefined ? row.retired_at : input.retired ? (row.retired_at ?? deps.clock.now()) : null;
    return { next: input.next_number ?? row.next_number, createdAt: row.created_at, retiredAt };
  });
}

function seriesExists(input: SeriesInput): ApiError {
  return new ApiError('series_exists', `The issuer already has series ${input.series} of model ${input.model}`, [
    { field: 'series', message: `series ${input.series} of model ${input.model} exists: change it with PATCH .../series/${input.model}/${input.series}` },
  ]);
}

/**
 * One transaction holding the series' counter row (the emission statement checks it: a sale built on
 * the old counter is built again). The floor is the highest number used by a note or voided behind the
 * counter; next_number must be above it and outside every voided range. Moving forward leaves the
 * numbers between unused: they are listed (`gaps`) to be voided by the 10th day of the next month.
 */
async function changeSeries(
  deps: Deps,
  issuer: RegisteredIssuer,
  model: SeriesModel,
  serie: number,
  decide: (row: SeriesRow, floor: number) => { next: number; createdAt: Date | null; retiredAt: Date | null },
): Promise<SeriesChange> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await ensureSeriesRow(tx, issuer.id, model, serie);
    const row = (await lockSeriesRow(tx, issuer.id, model, serie))!;
    const voided = await voidedRanges(tx, issuer.id, model, serie);
    const behind = voided.filter(([from]) => from < row.next_number).map(([, to]) => to);
    const floor = Math.max(row.highest_used ?? 0, ...behind);
    const wanted = decide(row, floor);
    if (wanted.next !== row.next_number || wanted.createdAt !== row.created_at) assertFree(wanted.next, floor, [...voided, ...row.skips]);
    const counter = wanted.next === row.next_number ? { next: row.next_number, skips: row.skips } : normalize({ next: wanted.next, skips: row.skips });
    await writeSeries(tx, issuer.id, { model, serie, next: counter.next, skips: counter.skips, createdAt: wanted.createdAt, retiredAt: wanted.retiredAt });
    const gaps = gapsBetween(Math.max(row.next_number, floor + 1), counter.next, [...voided, ...row.skips]);
    const record = present(issuer.id, { ...row, next_number: counter.next, skips: counter.skips, created_at: wanted.createdAt, retired_at: wanted.retiredAt });
    return { ...record, gaps, void_by: gaps.length > 0 ? voidDeadline(now, issuer) : null };
  });
}

function assertFree(next: number, floor: number, voided: Skip[]): void {
  if (next <= floor) {
    throw new ApiError('series_number_used', `next_number ${next} is not above ${floor}, the highest number of the series already used or voided`, [
      { field: 'next_number', message: `must be at least ${floor + 1}: a number used or voided is never issued again (Ajuste SINIEF 07/05 cl. 3ª II)` },
    ]);
  }
  const range = voided.find(([from, to]) => next >= from && next <= to);
  if (range) {
    throw new ApiError('series_number_used', `next_number ${next} is voided (inutilizado) in ${range[0]}-${range[1]}`, [
      { field: 'next_number', message: `is inside the voided range ${range[0]}-${range[1]}: choose ${range[1] + 1} or a number before ${range[0]}` },
    ]);
  }
}

/** The numbers in [from, to) neither used nor voided: what moving the counter forward skipped. */
export function gapsBetween(from: number, to: number, voided: Skip[]): Array<{ from: number; to: number }> {
  const gaps: Array<{ from: number; to: number }> = [];
  let at = from;
  for (const [f, l] of [...voided].sort((a, b) => a[0] - b[0])) {
    if (l < at) continue;
    if (f >= to) break;
    if (f > at) gaps.push({ from: at, to: f - 1 });
    at = Math.max(at, l + 1);
  }
  if (at < to) gaps.push({ from: at, to: to - 1 });
  return gaps;
}

/** Ajuste SINIEF 07/05 cl. 14ª (NF-e), 19/16 cl. 16ª (NFC-e): a break in the sequence is voided by the 10th day of the next month. */
function voidDeadline(now: Date, issuer: RegisteredIssuer): string {
  const local = localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf));
  const [year, month] = local.month === 12 ? [local.year + 1, 1] : [local.year, local.month + 1];
  return `${year}-${String(month).padStart(2, '0')}-10`;
}
