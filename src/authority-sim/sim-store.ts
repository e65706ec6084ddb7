import { X509Certificate } from 'node:crypto';
import type { Db } from '../infra/storage/db.js';
import { SimDfeStore } from './sim-dfe-store.js';
import { OPERATOR_TENANT } from './tenant.js';

export interface NoteRow {
  access_key: string;
  cnpj: string;
  model: number;
  serie: number;
  nnf: number;
  tp_amb: number;
  tp_emis: number;
  status: 'authorized' | 'denied' | 'canceled';
  c_stat: number;
  n_prot: string;
  authorized_at: Date;
  prot_xml: string;
  /** finNFe of the note (MOC 3BA02-20: a complementary note may not complete another); null when not kept. */
  fin_nfe?: number | null;
}

export type NewNote = NoteRow;
export type NumberedNote = Pick<NoteRow, 'access_key' | 'cnpj' | 'model' | 'serie' | 'nnf' | 'tp_amb'>;
export type Obstacle =
  | { kind: 'same-key' | 'same-number'; note: Pick<NoteRow, 'access_key' | 'status' | 'n_prot' | 'authorized_at'> }
  | { kind: 'voided' };

const PROTOCOL_BLOCK = 1000;
const CSC_CACHE_MS = 5_000;
const CLAIM_BATCH = 200;

/** A registered CSC; `revokedAt`: when it was revoked (null: not revoked, or revoked at an unknown time). */
export type RegisteredCsc = { token: string; revoked: boolean; revokedAt?: Date | null };
type Cscs = ReadonlyMap<string, RegisteredCsc>;
type Claim = { tenant: string; note: NewNote; resolve: (claimed: boolean) => void; reject: (err: unknown) => void };

/** What every tenant's view shares: the protocol blocks, the group commit, the CSCs held in memory. */
class Shared {
  // CSC registry held in memory (cscStorage 'memory'): when the simulator shares the gateway's
  // database (the sandbox), a clear CSC must not land in it; the sandbox re-registers at start.
  readonly memoryCscs: Map<string, Map<string, RegisteredCsc>> | null;
  readonly cscCache = new Map<string, { cscs: Cscs; until: number }>();
  protocols = { next: 0, end: 0 };
  refill: Promise<void> | undefined;
  readonly pendingClaims: Claim[] = [];
  flushing = false;
  flushScheduled = false;
  constructor(cscStorage: 'database' | 'memory') {
    this.memoryCscs = cscStorage === 'memory' ? new Map() : null;
  }
}

/**
 * The simulator's durable memory: what it authorized, denied, canceled and voided, as one tenant
 * (tenant.ts) sees it: forTenant() gives another tenant's view of the same tables.
 */
export class SimStore {
  private readonly shared: Shared;
  /** The Ambiente Nacional's tables (received notes, distribution, pacing), this tenant's. */
  readonly dfe: SimDfeStore;

  constructor(
    private readonly db: Db,
    cscStorage: 'database' | 'memory' = 'database',
    readonly tenant: string = OPERATOR_TENANT,
    shared?: Shared,
  ) {
    this.shared = shared ?? new Shared(cscStorage);
    this.dfe = new SimDfeStore(db, tenant);
  }

  /** The same store as `tenant` sees it. */
  forTenant(tenant: string): SimStore {
    return tenant === this.tenant ? this : new SimStore(this.db, 'database', tenant, this.shared);
  }

  async note(accessKey: string): Promise<NoteRow | null> {
    const r = await this.db.query<NoteRow>('SELECT * FROM sim_notes WHERE tenant = $2 AND access_key = $1', [accessKey, this.tenant]);
    return r.rows[0] ?? null;
  }

  /**
   * What stands in the way of a new note, in the authority's order, in one round trip: the same
   * key (204/205), the same number under another key (539), a voided number (206).
   */
  async obstacle(n: NumberedNote): Promise<Obstacle | null> {
    const r = await this.db.query<{ rank: number; access_key: string | null; status: NoteRow['status'] | null; n_prot: string | null; authorized_at: Date | null }>(
      `SELECT * FROM (
         SELECT 1 AS rank, access_key, status, n_prot, authorized_at FROM sim_notes WHERE tenant = $7 AND access_key = $1
         UNION ALL
         (SELECT 2, access_key, status, n_prot, authorized_at FROM sim_notes
           WHERE tenant = $7 AND cnpj = $2 AND model = $3 AND serie = $4 AND nnf = $5 AND tp_amb = $6 LIMIT 1)
         UNION ALL
         (SELECT 3, NULL, NULL, NULL, NULL FROM sim_voids
           WHERE tenant = $7 AND cnpj = $2 AND model = $3 AND serie = $4 AND tp_amb = $6 AND n_ini <= $5 AND n_fin >= $5 LIMIT 1)
       ) o ORDER BY rank LIMIT 1`,
      [n.access_key, n.cnpj, n.model, n.serie, n.nnf, n.tp_amb, this.tenant],
    );
    const row = r.rows[0];
    if (!row) return null;
    if (Number(row.rank) === 3) return { kind: 'voided' };
    const note = { access_key: row.access_key!, status: row.status!, n_prot: row.n_prot!, authorized_at: new Date(row.authorized_at!) };
    return Number(row.rank) === 1 ? { kind: 'same-key', note } : { kind: 'same-number', note };
  }

  /**
   * TProt: 15 digits = authoriser type (1) + cUF + 2-digit year + 10-digit sequence (as 143210000624926).
   * The sequence comes in blocks of PROTOCOL_BLOCK reserved with one nextval, so an authorization
   * costs no round trip for it; simulators sharing a database reserve distinct blocks. `origin` is the first
   * digit: 1 by default; 8 for an EPEC at the AN, whose protocol starts 891 (NT 2014.001 3.1, docs/fiscal/epec.md).
   */
  async nextProtocol(cUF: string, at: Date, origin: '1' | '8' = '1'): Promise<string> {
    const sh = this.shared;
    while (sh.protocols.next >= sh.protocols.end) {
      sh.refill ??= this.db
        .query<{ n: number | string }>("SELECT nextval('sim_protocol_block_seq') AS n")
        .then((r) => {
          const start = Number(r.rows[0]!.n) * PROTOCOL_BLOCK;
          sh.protocols = { next: start, end: start + PROTOCOL_BLOCK };
        })
        .finally(() => (sh.refill = undefined));
      await sh.refill;
    }
    const seq = String(sh.protocols.next++ % 10_000_000_000).padStart(10, '0');
    return origin + cUF.padStart(2, '0') + String(at.getUTCFullYear() % 100).padStart(2, '0') + seq;
  }

  /**
   * Records an authorization or denial: the unique keys (access key; CNPJ+model+series+number+env)
   * claim the key and the number, a voided number is refused, and an authorization is counted in
   * sim_grants. false: something stood in the way (see obstacle()).
   * Group commit: claims made in one turn of the event loop, or while a statement is running, go
   * together in one statement, so a busy authority pays one round trip for many notes.
   */
  claimNote(n: NewNote): Promise<boolean> {
    const sh = this.shared;
    return new Promise<boolean>((resolve, reject) => {
      sh.pendingClaims.push({ tenant: this.tenant, note: n, resolve, reject });
      // Flushed after this turn of the event loop: requests whose bytes arrived together claim
      // together (with PGlite the query runs on this thread, so nothing could join a running one).
      if (!sh.flushing && !sh.flushScheduled) {
        sh.flushScheduled = true;
        setImmediate(() => {
          sh.flushScheduled = false;
          void this.flushClaims();
        });
      }
    });
  }

  private async flushClaims(): Promise<void> {
    const sh = this.shared;
    sh.flushing = true;
    try {
      while (sh.pendingClaims.length > 0) {
        const batch = sh.pendingClaims.splice(0, CLAIM_BATCH);
        try {
          const claimed = await this.claimAll(batch);
          for (const c of batch) c.resolve(claimed.has(c.note.n_prot));
        } catch (err) {
          for (const c of batch) c.reject(err);
        }
      }
    } finally {
      sh.flushing = false;
    }
  }

  /** One statement for a batch (of any tenants); returns the protocol numbers (one per claim) that took their row. */
  private async claimAll(claims: Claim[]): Promise<Set<string>> {
    const notes = claims.map((c) => c.note);
    const column = <K extends keyof NewNote>(k: K) => notes.map((n) => n[k]);
    const r = await this.db.query<{ n_prot: string }>(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::smallint[], $4::integer[], $5::bigint[], $6::smallint[], $7::smallint[],
                              $8::text[], $9::integer[], $10::text[], $11::timestamptz[], $12::text[], $13::text[], $14::smallint[]) WITH ORDINALITY
           AS t(access_key, cnpj, model, serie, nnf, tp_amb, tp_emis, status, c_stat, n_prot, authorized_at, prot_xml, tenant, fin_nfe, ord)),
       claimed AS (
         INSERT INTO sim_notes (tenant, access_key, cnpj, model, serie, nnf, tp_amb, tp_emis, status, c_stat, n_prot, authorized_at, prot_xml, fin_nfe)
         SELECT tenant, access_key, cnpj, model, serie, nnf, tp_amb, tp_emis, status, c_stat, n_prot, authorized_at, prot_xml, fin_nfe FROM input i
          WHERE NOT EXISTS (SELECT 1 FROM sim_voids v
                             WHERE v.tenant = i.tenant AND v.cnpj = i.cnpj AND v.model = i.model AND v.serie = i.serie AND v.tp_amb = i.tp_amb
                               AND v.n_ini <= i.nnf AND v.n_fin >= i.nnf)
          -- Arrival order: of two claims on one key or number in a batch, the earlier one wins.
          ORDER BY i.ord
         ON CONFLICT DO NOTHING
         RETURNING tenant, access_key, n_prot, status),
       granted AS (
         INSERT INTO sim_grants (tenant, access_key, n_prot) SELECT tenant, access_key, n_prot FROM claimed WHERE status = 'authorized')
       SELECT n_prot FROM claimed`,
      [
        column('access_key'),
        column('cnpj'),
        column('model'),
        column('serie'),
        column('nnf'),
        column('tp_amb'),
        column('tp_emis'),
        column('status'),
        column('c_stat'),
        column('n_prot'),
        notes.map((n) => n.authorized_at.toISOString()),
        column('prot_xml'),
        claims.map((c) => c.tenant),
        notes.map((n) => n.fin_nfe ?? null),
      ],
    );
    return new Set(r.rows.map((x) => x.n_prot));
  }

  /** Authorizations granted to this key, in every tenant (the proof that no sale was authorized twice). */
  async grants(accessKey: string): Promise<number> {
    const r = await this.db.query<{ c: number | string }>('SELECT count(*) AS c FROM sim_grants WHERE access_key = $1', [accessKey]);
    return Number(r.rows[0]?.c ?? 0);
  }

  async eventExists(eventId: string): Promise<boolean> {
    const r = await this.db.query('SELECT 1 FROM sim_events WHERE tenant = $2 AND event_id = $1', [eventId, this.tenant]);
    return r.rows.length > 0;
  }

  async eventsOf(accessKey: string): Promise<string[]> {
    const r = await this.db.query<{ proc_xml: string }>(
      'SELECT proc_xml FROM sim_events WHERE tenant = $2 AND access_key = $1 ORDER BY registered_at, event_id',
      [accessKey, this.tenant],
    );
    return r.rows.map((x) => x.proc_xml);
  }

  /** Registers an event; a cancellation also flips the note to canceled, in the same transaction. */
  async insertEvent(e: {
    eventId: string;
    accessKey: string;
    tpEvento: string;
    nSeq: number;
    nProt: string;
    at: Date;
    procXml: string;
    cancels: boolean;
  }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const r = await tx.query(
        `INSERT INTO sim_events (tenant, event_id, access_key, tp_evento, n_seq, n_prot, registered_at, proc_xml)
         VALUES ($8,$1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING`,
        [e.eventId, e.accessKey, e.tpEvento, e.nSeq, e.nProt, e.at, e.procXml, this.tenant],
      );
      if (r.rowCount !== 1) return false;
      if (e.cancels) await tx.query("UPDATE sim_notes SET status = 'canceled' WHERE tenant = $2 AND access_key = $1", [e.accessKey, this.tenant]);
      return true;
    });
  }

  /**
   * EPEC (110140) registered for the key's natural key: model, UF, CNPJ/CPF, series and number (key
   * positions 1-2 and 7-34; docs/fiscal/epec.md), whatever its tpEmis and cNF.
   */
  async epecsOfNumber(accessKey: string): Promise<Array<{ accessKey: string; procXml: string }>> {
    const r = await this.db.query<{ access_key: string; proc_xml: string }>(
      `SELECT access_key, proc_xml FROM sim_events WHERE tenant = $3 AND tp_evento = '110140'
         AND substr(access_key, 1, 2) = $1 AND substr(access_key, 7, 28) = $2 ORDER BY registered_at`,
      [accessKey.slice(0, 2), accessKey.slice(6, 34), this.tenant],
    );
    return r.rows.map((x) => ({ accessKey: x.access_key, procXml: x.proc_xml }));
  }

  /** EPEC of an issuer (key positions 7-20) registered before `before` whose key no note has reached: pending conciliation. */
  async pendingEpecs(issuer: string, before: Date): Promise<string[]> {
    const r = await this.db.query<{ access_key: string }>(
      `SELECT e.access_key FROM sim_events e WHERE e.tenant = $3 AND e.tp_evento = '110140'
         AND substr(e.access_key, 7, 14) = $1 AND substr(e.access_key, 21, 2) = '55' AND e.registered_at < $2
         AND NOT EXISTS (SELECT 1 FROM sim_notes n WHERE n.tenant = e.tenant AND n.access_key = e.access_key)
       ORDER BY e.registered_at LIMIT 50`,
      [issuer, before, this.tenant],
    );
    return r.rows.map((x) => x.access_key);
  }

  async notesInRange(cnpj: string, model: number, serie: number, tpAmb: number, from: number, to: number): Promise<number> {
    const r = await this.db.query<{ c: number | string }>(
      'SELECT count(*) AS c FROM sim_notes WHERE tenant = $7 AND cnpj = $1 AND model = $2 AND serie = $3 AND tp_amb = $4 AND nnf BETWEEN $5 AND $6',
      [cnpj, model, serie, tpAmb, from, to, this.tenant],
    );
    return Number(r.rows[0]?.c ?? 0);
  }

  async voidsOverlapping(
    cnpj: string,
    model: number,
    serie: number,
    tpAmb: number,
    from: number,
    to: number,
  ): Promise<Array<{ n_ini: number; n_fin: number }>> {
    const r = await this.db.query<{ n_ini: number | string; n_fin: number | string }>(
      'SELECT n_ini, n_fin FROM sim_voids WHERE tenant = $7 AND cnpj = $1 AND model = $2 AND serie = $3 AND tp_amb = $4 AND n_ini <= $6 AND n_fin >= $5',
      [cnpj, model, serie, tpAmb, from, to, this.tenant],
    );
    return r.rows.map((x) => ({ n_ini: Number(x.n_ini), n_fin: Number(x.n_fin) }));
  }

  async insertVoid(v: {
    inutId: string;
    cnpj: string;
    model: number;
    serie: number;
    tpAmb: number;
    from: number;
    to: number;
    nProt: string;
    retXml: string;
  }): Promise<boolean> {
    const r = await this.db.query(
      `INSERT INTO sim_voids (tenant, inut_id, cnpj, model, serie, tp_amb, n_ini, n_fin, n_prot, ret_xml)
       VALUES ($10,$1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT DO NOTHING`,
      [v.inutId, v.cnpj, v.model, v.serie, v.tpAmb, v.from, v.to, v.nProt, v.retXml, this.tenant],
    );
    return r.rowCount === 1;
  }

  /** Registers a CSC; a revoked one keeps the time it was first revoked (`at`, the simulator's clock). */
  async upsertCsc(cnpj: string, tpAmb: number, idCsc: number, csc: string, revoked: boolean, at: Date = new Date()): Promise<void> {
    const key = `${this.tenant}|${cnpj}:${tpAmb}`;
    const memory = this.shared.memoryCscs;
    if (!memory) {
      await this.db.query(
        `INSERT INTO sim_csc (tenant, cnpj, tp_amb, id_csc, csc, revoked, revoked_at) VALUES ($6,$1,$2,$3,$4,$5, CASE WHEN $5 THEN $7::timestamptz END)
         ON CONFLICT (tenant, cnpj, tp_amb, id_csc) DO UPDATE SET csc = EXCLUDED.csc, revoked = EXCLUDED.revoked,
           revoked_at = CASE WHEN EXCLUDED.revoked THEN COALESCE(sim_csc.revoked_at, EXCLUDED.revoked_at) END`,
        [cnpj, tpAmb, idCsc, csc, revoked, this.tenant, at],
      );
      this.shared.cscCache.delete(key);
      return;
    }
    const forIssuer = memory.get(key) ?? new Map<string, RegisteredCsc>();
    const before = forIssuer.get(String(idCsc))?.revokedAt ?? null;
    forIssuer.set(String(idCsc), { token: csc, revoked, revokedAt: revoked ? (before ?? at) : null });
    memory.set(key, forIssuer);
  }

  /**
   * The issuer's CSCs by id: this tenant's, over the operator's (registered without a tenant: tests,
   * the admin API), so one account's CSC never replaces another's. From the database they are
   * cached briefly: every authorization needs them.
   */
  async cscs(cnpj: string, tpAmb: number): Promise<Cscs> {
    const own = await this.tenantCscs(this.tenant, cnpj, tpAmb);
    if (this.tenant === OPERATOR_TENANT) return own;
    const operator = await this.tenantCscs(OPERATOR_TENANT, cnpj, tpAmb);
    return operator.size === 0 ? own : new Map([...operator, ...own]);
  }

  private async tenantCscs(tenant: string, cnpj: string, tpAmb: number): Promise<Cscs> {
    const key = `${tenant}|${cnpj}:${tpAmb}`;
    const sh = this.shared;
    if (sh.memoryCscs) return sh.memoryCscs.get(key) ?? new Map();
    const cached = sh.cscCache.get(key);
    if (cached && cached.until > Date.now()) return cached.cscs;
    const r = await this.db.query<{ id_csc: number; csc: string; revoked: boolean; revoked_at: Date | string | null }>(
      'SELECT id_csc, csc, revoked, revoked_at FROM sim_csc WHERE tenant = $3 AND cnpj = $1 AND tp_amb = $2',
      [cnpj, tpAmb, tenant],
    );
    const cscs = new Map(
      r.rows.map((x) => [String(x.id_csc), { token: x.csc, revoked: x.revoked, revokedAt: x.revoked_at === null ? null : new Date(x.revoked_at) }]),
    );
    // Another simulator sharing the database may register a CSC: a short life bounds how long we miss it.
    if (sh.cscCache.size >= 10_000) sh.cscCache.clear();
    sh.cscCache.set(key, { cscs, until: Date.now() + CSC_CACHE_MS });
    return cscs;
  }

  /** Certificates are public: a standalone simulator keeps the registered ones across restarts. */
  async clientCertificates(): Promise<string[]> {
    const r = await this.db.query<{ pem: string }>('SELECT pem FROM sim_client_certificates ORDER BY registered_at');
    return r.rows.map((x) => x.pem);
  }

  async addClientCertificate(pem: string): Promise<void> {
    const fingerprint = new X509Certificate(pem).fingerprint256;
    await this.db.query('INSERT INTO sim_client_certificates (fingerprint, pem) VALUES ($1, $2) ON CONFLICT DO NOTHING', [fingerprint, pem]);
  }

  async saveReceipt(nRec: string, protXml: string): Promise<void> {
    await this.db.query('INSERT INTO sim_receipts (tenant, n_rec, prot_xml) VALUES ($3, $1, $2) ON CONFLICT DO NOTHING', [nRec, protXml, this.tenant]);
  }

  async receipt(nRec: string): Promise<string | null> {
    const r = await this.db.query<{ prot_xml: string }>('SELECT prot_xml FROM sim_receipts WHERE tenant = $2 AND n_rec = $1', [nRec, this.tenant]);
    return r.rows[0]?.prot_xml ?? null;
  }
}
