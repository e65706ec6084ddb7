import type { Db } from '../infra/storage/db.js';

export interface ReceivedNote {
  access_key: string;
  recipient: string;
  tp_amb: number;
  nfe_proc_xml: string;
  authorized_at: Date;
}

export interface DfeDoc {
  nsu: string;
  access_key: string;
  schema: string;
  xml: string;
}

export interface Pacing {
  lastHanded: bigint;
  waitUntil: Date | null;
}

const NSU_RETRIES = 8;

/**
 * The Ambiente Nacional's memory: notes with a recipient, what each party may download (by NSU), its
 * pacing; one tenant's (tenant.ts), so accounts sharing a test CNPJ have a stream of their own.
 */
export class SimDfeStore {
  constructor(
    private readonly db: Db,
    private readonly tenant: string,
  ) {}

  async addReceivedNote(n: ReceivedNote): Promise<boolean> {
    const r = await this.db.query(
      `INSERT INTO sim_received_notes (tenant, access_key, recipient, tp_amb, nfe_proc_xml, authorized_at) VALUES ($6,$1,$2,$3,$4,$5) ON CONFLICT DO NOTHING`,
      [n.access_key, n.recipient, n.tp_amb, n.nfe_proc_xml, n.authorized_at, this.tenant],
    );
    return r.rowCount === 1;
  }

  async receivedNote(accessKey: string): Promise<ReceivedNote | null> {
    const r = await this.db.query<ReceivedNote>('SELECT access_key, recipient, tp_amb, nfe_proc_xml, authorized_at FROM sim_received_notes WHERE tenant = $2 AND access_key = $1', [accessKey, this.tenant]);
    return r.rows[0] ?? null;
  }

  /**
   * Hands a document to a party under its next NSU; null when it already holds it (a summary and a
   * nfeProc are handed once). NSUs are dense per party: a concurrent insert takes the number, we retry.
   */
  async addDoc(recipient: string, tpAmb: number, accessKey: string, schema: string, xml: string): Promise<string | null> {
    for (let i = 0; i < NSU_RETRIES; i++) {
      const r = await this.db.query<{ nsu: string | number }>(
        `INSERT INTO sim_dfe_docs (tenant, recipient, tp_amb, nsu, access_key, schema, xml)
         SELECT $6, $1, $2, coalesce(max(nsu), 0) + 1, $3, $4, $5 FROM sim_dfe_docs WHERE tenant = $6 AND recipient = $1 AND tp_amb = $2
         ON CONFLICT DO NOTHING RETURNING nsu`,
        [recipient, tpAmb, accessKey, schema, xml, this.tenant],
      );
      if (r.rows[0]) return String(r.rows[0].nsu);
      const held = await this.db.query(
        `SELECT 1 FROM sim_dfe_docs WHERE tenant = $5 AND recipient = $1 AND tp_amb = $2 AND access_key = $3 AND schema = $4
           AND schema IN ('resNFe_v1.01.xsd', 'procNFe_v4.00.xsd')`,
        [recipient, tpAmb, accessKey, schema, this.tenant],
      );
      if (held.rows.length > 0) return null;
    }
    throw new Error(`no NSU could be taken for ${recipient}`);
  }

  async maxNsu(recipient: string, tpAmb: number): Promise<bigint> {
    const r = await this.db.query<{ m: string | number | null }>('SELECT max(nsu) AS m FROM sim_dfe_docs WHERE tenant = $3 AND recipient = $1 AND tp_amb = $2', [recipient, tpAmb, this.tenant]);
    return BigInt(r.rows[0]?.m ?? 0);
  }

  async docsAfter(recipient: string, tpAmb: number, after: bigint, limit: number): Promise<DfeDoc[]> {
    const r = await this.db.query<DfeDoc>(
      'SELECT nsu::text AS nsu, access_key, schema, xml FROM sim_dfe_docs WHERE tenant = $5 AND recipient = $1 AND tp_amb = $2 AND nsu > $3 ORDER BY sim_dfe_docs.nsu LIMIT $4',
      [recipient, tpAmb, after.toString(), limit, this.tenant],
    );
    return r.rows;
  }

  async docAt(recipient: string, tpAmb: number, nsu: bigint): Promise<DfeDoc | null> {
    const r = await this.db.query<DfeDoc>(
      'SELECT nsu::text AS nsu, access_key, schema, xml FROM sim_dfe_docs WHERE tenant = $4 AND recipient = $1 AND tp_amb = $2 AND nsu = $3',
      [recipient, tpAmb, nsu.toString(), this.tenant],
    );
    return r.rows[0] ?? null;
  }

  /** The documents of one key for a party, newest first (the whole nfeProc outranks its summary). */
  async docsOfKey(recipient: string, tpAmb: number, accessKey: string): Promise<DfeDoc[]> {
    const r = await this.db.query<DfeDoc>(
      'SELECT nsu::text AS nsu, access_key, schema, xml FROM sim_dfe_docs WHERE tenant = $4 AND recipient = $1 AND tp_amb = $2 AND access_key = $3 ORDER BY sim_dfe_docs.nsu DESC',
      [recipient, tpAmb, accessKey, this.tenant],
    );
    return r.rows;
  }

  async pacing(recipient: string, tpAmb: number): Promise<Pacing> {
    const r = await this.db.query<{ last_handed: string | number; wait_until: Date | null }>(
      'SELECT last_handed, wait_until FROM sim_dfe_pacing WHERE tenant = $3 AND recipient = $1 AND tp_amb = $2',
      [recipient, tpAmb, this.tenant],
    );
    const row = r.rows[0];
    return { lastHanded: BigInt(row?.last_handed ?? 0), waitUntil: row?.wait_until ? new Date(row.wait_until) : null };
  }

  async setPacing(recipient: string, tpAmb: number, p: Pacing): Promise<void> {
    await this.db.query(
      `INSERT INTO sim_dfe_pacing (tenant, recipient, tp_amb, last_handed, wait_until) VALUES ($5,$1,$2,$3,$4)
       ON CONFLICT (tenant, recipient, tp_amb) DO UPDATE SET last_handed = EXCLUDED.last_handed, wait_until = EXCLUDED.wait_until`,
      [recipient, tpAmb, p.lastHanded.toString(), p.waitUntil, this.tenant],
    );
  }

  /** How many events of a type the authority registered for a key (the recipient's manifestations). */
  async eventCount(accessKey: string, tpEvento: string): Promise<number> {
    const r = await this.db.query<{ c: string | number }>('SELECT count(*) AS c FROM sim_events WHERE tenant = $3 AND access_key = $1 AND tp_evento = $2', [accessKey, tpEvento, this.tenant]);
    return Number(r.rows[0]?.c ?? 0);
  }

  /** The highest nSeqEvento registered for a key and type (0 when none). */
  async lastSeq(accessKey: string, tpEvento: string): Promise<number> {
    const r = await this.db.query<{ m: number | null }>('SELECT max(n_seq) AS m FROM sim_events WHERE tenant = $3 AND access_key = $1 AND tp_evento = $2', [accessKey, tpEvento, this.tenant]);
    return Number(r.rows[0]?.m ?? 0);
  }
}
