// What the simulated Sefin Nacional and ADN remember (tables in sim-migrations.ts, migration 5): the
// NFS-e by key and by DPS Id (one NFS-e per DPS Id: E0014), the registered events, the number each
// provider is at, and the distribution log (NSU) of every document with the parties it involves.
import type { Db, Queryable } from '../../infra/storage/db.js';

export type NfseStatus = 'authorized' | 'canceled' | 'substituted';

export interface NfseRow {
  access_key: string;
  dps_id: string;
  tax_id: string;
  tp_amb: number;
  status: NfseStatus;
  nfse_xml: string;
  toma_id: string | null;
  interm_id: string | null;
}

export interface NewNfse {
  accessKey: string;
  dpsId: string;
  taxId: string;
  tpAmb: number;
  nNFSe: number;
  nfseXml: string;
  tomaId?: string | undefined;
  intermId?: string | undefined;
  processedAt: Date;
}

export interface NewNfseEvent {
  accessKey: string;
  tpEvento: string;
  nSeq: number;
  xml: string;
  registeredAt: Date;
}

export interface DfeRow {
  nsu: string;
  access_key: string;
  kind: 'NFSE' | 'EVENTO';
  tp_evento: string | null;
  xml: string;
  created_at: Date;
}

export const COLUMNS = 'access_key, dps_id, tax_id, tp_amb, status, nfse_xml, toma_id, interm_id';

/** The CNPJ/CPF of the note's actors: provider, taker, intermediary (who may read it, who receives it). */
export const actorsOf = (n: Pick<NfseRow, 'tax_id' | 'toma_id' | 'interm_id'>): string[] => [n.tax_id, n.toma_id, n.interm_id].filter((p): p is string => Boolean(p));

/** ADN lots hold up to 50 documents (Manual Contribuintes APIs, distribution by NSU). */
export const DFE_LOT_SIZE = 50;

/** One tenant's view (tenant.ts): accounts sharing a test CNPJ have numbers, notes and streams of their own. */
export class NfseStore {
  constructor(
    private readonly db: Db,
    // '' is the operator's tenant (tenant.ts OPERATOR_TENANT; not imported: the parent folder imports this one).
    readonly tenant: string = '',
  ) {}

  forTenant(tenant: string): NfseStore {
    return tenant === this.tenant ? this : new NfseStore(this.db, tenant);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  async byKey(key: string): Promise<NfseRow | null> {
    const r = await this.db.query<NfseRow>(`SELECT ${COLUMNS} FROM sim_nfse WHERE tenant = $2 AND access_key = $1`, [key, this.tenant]);
    return r.rows[0] ?? null;
  }

  /** The NFS-e generated from this DPS Id, if any. */
  async byDps(dpsId: string): Promise<NfseRow | null> {
    const r = await this.db.query<NfseRow>(`SELECT ${COLUMNS} FROM sim_nfse WHERE tenant = $2 AND dps_id = $1`, [dpsId, this.tenant]);
    return r.rows[0] ?? null;
  }

  /** How many NFS-e came from this DPS Id, in every tenant (0 or 1 per tenant: the unique index holds it). */
  async issuedFor(dpsId: string): Promise<number> {
    const r = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sim_nfse WHERE dps_id = $1', [dpsId]);
    return r.rows[0]?.n ?? 0;
  }

  async event(key: string, tpEvento: string, nSeq: number): Promise<string | null> {
    const r = await this.db.query<{ xml: string }>('SELECT xml FROM sim_nfse_events WHERE tenant = $4 AND access_key = $1 AND tp_evento = $2 AND n_seq = $3', [key, tpEvento, nSeq, this.tenant]);
    return r.rows[0]?.xml ?? null;
  }

  /** The provider's next nNFSe (sequential per provider, docs/fiscal/nfse-national.md#access-key: Sefin assigns it). */
  async nextNumber(tx: Queryable, taxId: string): Promise<number> {
    const r = await tx.query<{ last: string }>(
      `INSERT INTO sim_nfse_numbers (tenant, tax_id, last) VALUES ($2, $1, 1)
       ON CONFLICT (tenant, tax_id) DO UPDATE SET last = sim_nfse_numbers.last + 1 RETURNING last`,
      [taxId, this.tenant],
    );
    return Number(r.rows[0]!.last);
  }

  /** The next document number: nDFSe inside the document and its NSU in the distribution. */
  async nextNsu(tx: Queryable): Promise<number> {
    const r = await tx.query<{ n: string }>(`SELECT nextval('sim_nfse_nsu_seq') AS n`);
    return Number(r.rows[0]!.n);
  }

  /** false when an NFS-e already came from this DPS Id (E0014). */
  async insertNfse(tx: Queryable, n: NewNfse): Promise<boolean> {
    const r = await tx.query(
      `INSERT INTO sim_nfse (tenant, access_key, dps_id, tax_id, tp_amb, n_nfse, status, nfse_xml, toma_id, interm_id, processed_at)
       VALUES ($10, $1, $2, $3, $4, $5, 'authorized', $6, $7, $8, $9) ON CONFLICT (tenant, dps_id) DO NOTHING`,
      [n.accessKey, n.dpsId, n.taxId, n.tpAmb, n.nNFSe, n.nfseXml, n.tomaId ?? null, n.intermId ?? null, n.processedAt, this.tenant],
    );
    return r.rowCount === 1;
  }

  /** Moves an authorized NFS-e to `status`; false when it was no longer authorized. */
  async close(tx: Queryable, key: string, status: Exclude<NfseStatus, 'authorized'>): Promise<boolean> {
    const r = await tx.query(`UPDATE sim_nfse SET status = $2 WHERE tenant = $3 AND access_key = $1 AND status = 'authorized'`, [key, status, this.tenant]);
    return r.rowCount === 1;
  }

  async insertEvent(tx: Queryable, e: NewNfseEvent): Promise<void> {
    await tx.query('INSERT INTO sim_nfse_events (tenant, access_key, tp_evento, n_seq, xml, registered_at) VALUES ($6, $1, $2, $3, $4, $5)', [
      e.accessKey,
      e.tpEvento,
      e.nSeq,
      e.xml,
      e.registeredAt,
      this.tenant,
    ]);
  }

  /** Logs a document for distribution under `nsu` to every party it involves. */
  async distribute(tx: Queryable, nsu: number, doc: { accessKey: string; kind: 'NFSE' | 'EVENTO'; tpEvento?: string; parties: string[]; xml: string; at: Date }): Promise<void> {
    await tx.query('INSERT INTO sim_nfse_dfe (tenant, nsu, access_key, kind, tp_evento, parties, xml, created_at) VALUES ($8, $1, $2, $3, $4, $5, $6, $7)', [
      nsu,
      doc.accessKey,
      doc.kind,
      doc.tpEvento ?? null,
      [...new Set(doc.parties)],
      doc.xml,
      doc.at,
      this.tenant,
    ]);
  }

  /** Documents involving `party` from NSU `from` on (one when `lot` is false), NSU order. */
  async documentsFor(party: string, from: number, lot: boolean): Promise<DfeRow[]> {
    const r = await this.db.query<DfeRow>(
      `SELECT nsu::text AS nsu, access_key, kind, tp_evento, xml, created_at FROM sim_nfse_dfe
       WHERE tenant = $4 AND $1 = ANY(parties) AND sim_nfse_dfe.nsu >= $2 ORDER BY sim_nfse_dfe.nsu LIMIT $3`,
      [party, from, lot ? DFE_LOT_SIZE : 1, this.tenant],
    );
    return lot ? r.rows : r.rows.filter((d) => Number(d.nsu) === from);
  }

  /** The events of one NFS-e that a party of it may read, NSU ordered (ADN GET /NFSe/{ChaveAcesso}/Eventos). */
  async eventsOf(accessKey: string, party: string): Promise<DfeRow[]> {
    const r = await this.db.query<DfeRow>(
      `SELECT nsu::text AS nsu, access_key, kind, tp_evento, xml, created_at FROM sim_nfse_dfe
       WHERE tenant = $3 AND access_key = $1 AND kind = 'EVENTO' AND $2 = ANY(parties) ORDER BY sim_nfse_dfe.nsu`,
      [accessKey, party, this.tenant],
    );
    return r.rows;
  }
}
