// The books of a run with offline contingency, held against what the simulated SEFAZ
// stores (its tables sim_notes and sim_voids): per sale exactly one valid note, the note's final key;
// a first attempt the authority authorized canceled there; every number of every series explained
// (authorized, canceled or voided at the authority, docs/fiscal/offline-contingency.md: a number transmitted in normal emission
// and not used is voided); every contingency note transmitted within its deadline (24 hours, docs/fiscal/offline-contingency.md).
import pg from 'pg';
import type { Json } from './cluster.js';

/** A row of sim_notes (the simulator's record of a note it answered). */
export interface SimNoteRow {
  access_key: string;
  cnpj: string;
  model: number;
  serie: number;
  nnf: number;
  status: 'authorized' | 'denied' | 'canceled';
}

/** A row of sim_voids (an inutilization the simulator registered). */
export interface SimVoidRow {
  cnpj: string;
  model: number;
  serie: number;
  n_ini: number;
  n_fin: number;
}

export interface LedgerInput {
  /** Every note of the run's issuers, as GET /v1/nfce shows them. */
  notes: Json[];
  /** The note ids the clients were given (the sales accepted). */
  accepted: Iterable<string>;
  /** CNPJ of each issuer id. */
  cnpjOf: ReadonlyMap<string, string>;
  simNotes: SimNoteRow[];
  simVoids: SimVoidRow[];
  /** The gateway's counters, `${issuerId}/${model}/${serie}` -> next number (the highest handed out + 1). */
  nextNumber?: ReadonlyMap<string, number>;
}

export interface LedgerReport {
  /** Sales accepted without a final note (or with a first attempt not settled). */
  lost: string[];
  /** Sales with a valid note count at the authority other than one, or whose valid note is not their final one. */
  duplicated: string[];
  /** Notes the authority authorized that no sale of the run names (neither a final key nor a first attempt). */
  strays: string[];
  /** Per series: numbers neither authorized, canceled nor voided at the authority, or both authorized and voided. */
  unexplained: string[];
  /** Contingency notes not transmitted, or transmitted after their deadline. */
  late: string[];
  counts: {
    notes: number;
    authorized: number;
    rejected: number;
    contingencyNotes: number;
    straightToContingency: number;
    afterBound: number;
    firstAttemptsVoided: number;
    firstAttemptsCanceled: number;
    firstAttemptsAuthorizedAtAuthority: number;
    numbersChecked: number;
  };
}

const FINAL = new Set(['authorized', 'rejected', 'denied', 'canceled']);

export function checkLedger(o: LedgerInput): LedgerReport {
  const byKey = new Map(o.simNotes.map((r) => [r.access_key, r]));
  const byId = new Map(o.notes.map((n) => [n.id as string, n]));
  const known = new Set<string>();
  const lost: string[] = [];
  const duplicated: string[] = [];
  const late: string[] = [];
  const counts: LedgerReport['counts'] = {
    notes: o.notes.length, authorized: 0, rejected: 0, contingencyNotes: 0, straightToContingency: 0, afterBound: 0,
    firstAttemptsVoided: 0, firstAttemptsCanceled: 0, firstAttemptsAuthorizedAtAuthority: 0, numbersChecked: 0,
  };
  for (const id of o.accepted) {
    const n = byId.get(id);
    if (!n || !FINAL.has(n.status)) lost.push(`${id} ${n ? n.status : 'missing'}`);
    else if (n.contingency?.first_attempt?.outcome === 'pending') lost.push(`${id} ${n.status}, first attempt still pending`);
  }
  for (const n of o.notes) {
    if (n.status === 'authorized') counts.authorized++;
    if (n.status === 'rejected' || n.status === 'denied') counts.rejected++;
    const c = n.contingency as Json | null;
    const first = c?.first_attempt as Json | null | undefined;
    if (c) {
      counts.contingencyNotes++;
      if (first) counts.afterBound++;
      else counts.straightToContingency++;
      if (first?.outcome === 'voided') counts.firstAttemptsVoided++;
      if (first?.outcome === 'canceled_by_substitution') counts.firstAttemptsCanceled++;
      const sent = c.transmitted_at ? Date.parse(c.transmitted_at) : NaN;
      if (n.status === 'authorized' && !(sent <= Date.parse(c.deadline_at))) late.push(`${n.id} transmitted_at ${c.transmitted_at} deadline_at ${c.deadline_at}`);
    }
    const keys = [n.access_key, first?.access_key].filter((k): k is string => typeof k === 'string');
    for (const k of keys) known.add(k);
    const valid = keys.filter((k) => byKey.get(k)?.status === 'authorized');
    if (first && byKey.get(first.access_key)) counts.firstAttemptsAuthorizedAtAuthority++;
    const want = n.status === 'authorized' ? 1 : 0;
    if (valid.length !== want || (want === 1 && valid[0] !== n.access_key)) {
      duplicated.push(`${n.id} (${n.status}): valid at the authority ${valid.length ? valid.join(', ') : 'none'}; final key ${n.access_key}${first ? `, first attempt ${first.access_key} ${first.outcome}` : ''}`);
    }
  }
  const strays = o.simNotes.filter((r) => r.status === 'authorized' && !known.has(r.access_key)).map((r) => `${r.access_key} (serie ${r.serie} number ${r.nnf})`);
  const unexplained = unexplainedNumbers(o, counts);
  return { lost, duplicated, strays, unexplained, late, counts };
}

/** For each issuer/model/series: every number from 1 to the highest anyone saw must be at the authority. */
function unexplainedNumbers(o: LedgerInput, counts: LedgerReport['counts']): string[] {
  const series = new Map<string, { cnpj: string; model: number; serie: number; max: number }>();
  const see = (issuerId: string, model: number, serie: number, number: number) => {
    const cnpj = o.cnpjOf.get(issuerId);
    if (!cnpj || !Number.isInteger(number)) return;
    const k = `${cnpj}/${model}/${serie}`;
    const s = series.get(k) ?? { cnpj, model, serie, max: 0 };
    s.max = Math.max(s.max, number);
    series.set(k, s);
  };
  for (const n of o.notes) {
    see(n.issuer_id, n.model, n.serie, n.number);
    const first = n.contingency?.first_attempt;
    if (first) see(n.issuer_id, n.model, first.serie, first.number);
  }
  for (const [k, next] of o.nextNumber ?? []) {
    const [issuerId, model, serie] = k.split('/');
    see(issuerId!, Number(model), Number(serie), next - 1);
  }
  const issuerOf = new Map([...o.cnpjOf].map(([id, cnpj]) => [cnpj, id]));
  for (const r of o.simNotes) if (issuerOf.has(r.cnpj)) see(issuerOf.get(r.cnpj)!, r.model, r.serie, r.nnf);
  for (const v of o.simVoids) if (issuerOf.has(v.cnpj)) see(issuerOf.get(v.cnpj)!, v.model, v.serie, v.n_fin);
  const out: string[] = [];
  for (const s of series.values()) {
    const used = new Set(o.simNotes.filter((r) => r.cnpj === s.cnpj && r.model === s.model && r.serie === s.serie).map((r) => r.nnf));
    const voids = o.simVoids.filter((v) => v.cnpj === s.cnpj && v.model === s.model && v.serie === s.serie);
    const missing: number[] = [];
    for (let x = 1; x <= s.max; x++) {
      counts.numbersChecked++;
      if (!used.has(x) && !voids.some((v) => v.n_ini <= x && x <= v.n_fin)) missing.push(x);
    }
    const both = [...used].filter((x) => o.simNotes.some((r) => r.cnpj === s.cnpj && r.model === s.model && r.serie === s.serie && r.nnf === x && r.status === 'authorized') && voids.some((v) => v.n_ini <= x && x <= v.n_fin));
    if (both.length) out.push(`CNPJ ${s.cnpj} model ${s.model} series ${s.serie}: authorized and voided ${both.slice(0, 20).join(',')}`);
    if (missing.length) out.push(`CNPJ ${s.cnpj} model ${s.model} series ${s.serie} (1..${s.max}): ${missing.slice(0, 20).join(',')}${missing.length > 20 ? ` (+${missing.length - 20})` : ''}`);
  }
  return out;
}

/** What the simulator holds for these CNPJs (its schema on the shared PostgreSQL server; tp_amb 2). */
export async function readSimulatorBooks(url: string, schema: string, cnpjs: string[]): Promise<{ simNotes: SimNoteRow[]; simVoids: SimVoidRow[] }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const simNotes = (await c.query<SimNoteRow>(
      `SELECT access_key, cnpj, model::int AS model, serie, nnf::int AS nnf, status FROM "${schema}".sim_notes WHERE cnpj = ANY($1) AND tp_amb = 2`, [cnpjs],
    )).rows;
    const simVoids = (await c.query<SimVoidRow>(
      `SELECT cnpj, model::int AS model, serie, n_ini::int AS n_ini, n_fin::int AS n_fin FROM "${schema}".sim_voids WHERE cnpj = ANY($1) AND tp_amb = 2`, [cnpjs],
    )).rows;
    return { simNotes, simVoids };
  } finally {
    await c.end();
  }
}

/** The gateway's numbering counters (`${issuerId}/${model}/${serie}` -> next number) in its schema. */
export async function readCounters(url: string, schema: string): Promise<Map<string, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ issuer_id: string; model: number; serie: number; next_number: number }>(
      `SELECT issuer_id, model::int AS model, serie, next_number::int AS next_number FROM "${schema}".number_sequences`,
    );
    return new Map(r.rows.map((x) => [`${x.issuer_id}/${x.model}/${x.serie}`, x.next_number]));
  } finally {
    await c.end();
  }
}
