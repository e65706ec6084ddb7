import type { Db } from '../../../infra/storage/db.js';
import type { BreakerRow } from '../../../fiscal/sefaz/breaker-transitions.js';

// Circuit breakers of the authority endpoints (migration 19), shared by every gateway process. The
// state machine is fiscal/sefaz/breaker-transitions.ts; this file only reads, inserts and changes a
// row under its lock, so two processes never both claim a probe or both lose a failure.

/** The row as stored is the breaker the state machine reads (fiscal/sefaz/breaker-transitions.ts). */
export type BreakerRecord = BreakerRow;

const COLUMNS = [
  'endpoint', 'authorizer', 'service', 'state', 'failures', 'first_failure_at', 'opened_at', 'next_probe_at', 'cooldown_ms',
  'last_error', 'last_error_at', 'probe_uf', 'probe_model', 'probe_tp_amb', 'probe_certificate', 'updated_at',
] as const;
const values = (r: BreakerRecord) => COLUMNS.map((c) => r[c]);
// endpoint ($1) is the key; every other column is written from the new value, version raised by one.
const SET = COLUMNS.slice(1).map((c, i) => `${c} = $${i + 2}`).join(', ');

export interface BreakerRepository {
  list(): Promise<BreakerRecord[]>;
  ensure(row: BreakerRecord): Promise<BreakerRecord>;
  update(endpoint: string, change: (row: BreakerRecord) => BreakerRecord | null): Promise<{ before: BreakerRecord; after: BreakerRecord } | null>;
}

export function breakerRepository(db: Db): BreakerRepository {
  return {
    async list() {
      return (await db.query<BreakerRecord>('SELECT * FROM authority_breakers')).rows;
    },
    async ensure(row) {
      const placeholders = COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
      await db.query(`INSERT INTO authority_breakers (${COLUMNS.join(', ')}) VALUES (${placeholders}) ON CONFLICT (endpoint) DO NOTHING`, values(row));
      return (await db.query<BreakerRecord>('SELECT * FROM authority_breakers WHERE endpoint = $1', [row.endpoint])).rows[0] ?? row;
    },
    update(endpoint, change) {
      return db.transaction(async (tx) => {
        const before = (await tx.query<BreakerRecord>('SELECT * FROM authority_breakers WHERE endpoint = $1 FOR UPDATE', [endpoint])).rows[0];
        if (!before) return null;
        const next = change(before);
        if (!next) return null;
        const after = (await tx.query<BreakerRecord>(`UPDATE authority_breakers SET ${SET}, version = version + 1 WHERE endpoint = $1 RETURNING *`, values({ ...next, endpoint }))).rows[0]!;
        return { before, after };
      });
    },
  };
}
