import type { NoteContingency } from '../../notes/domain/note.js';
import type { Queryable } from '../../../infra/storage/db.js';
import type { NewNote } from '../../notes/storage/note-repository.js';

/**
 * Stores an NFC-e a point of sale issued offline (POST /v1/nfce/offline), already in `contingency`. Its
 * number is the point of sale's, in a series of its own: the gateway's counters (number_sequences,
 * released_numbers) are not touched, and notes_number_key (one live note per issuer, model, series and
 * number) and the unique access key keep two documents from holding one number (SQLSTATE 23505).
 */
export async function insertOfflineNote(tx: Queryable, n: NewNote & { contingency: NoteContingency }): Promise<void> {
  await tx.query(
    `INSERT INTO notes (id, account_id, issuer_id, external_ref, status, model, serie, number, access_key, tp_amb, tp_emis,
       dh_emi, schema_package, request, totals, items, signed_xml, digest_value, qrcode_url, url_chave, scenario, idempotency_key,
       contingency, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $24)`,
    [
      n.id, n.account_id, n.issuer_id, n.external_ref, n.status, n.model, n.serie, n.number, n.access_key, n.tp_amb, n.tp_emis,
      n.dh_emi, n.schema_package, JSON.stringify(n.request), JSON.stringify(n.totals), JSON.stringify(n.items), n.signed_xml,
      n.digest_value, n.qrcode_url, n.url_chave, n.scenario, n.idempotency_key, JSON.stringify(n.contingency), n.created_at,
    ],
  );
}

/** The note holding an access key, of any account (the key is unique across the table). */
export async function findNoteIdByAccessKey(db: Queryable, accessKey: string): Promise<{ id: string; account_id: string } | undefined> {
  const r = await db.query<{ id: string; account_id: string }>('SELECT id, account_id FROM notes WHERE access_key = $1', [accessKey]);
  return r.rows[0];
}

/** The live (not rejected) note holding a number of a series, with its key. */
export async function findLiveNoteByNumber(
  db: Queryable,
  s: { issuerId: string; model: number; serie: number; number: number },
): Promise<{ id: string; access_key: string } | undefined> {
  const r = await db.query<{ id: string; access_key: string }>(
    `SELECT id, access_key FROM notes WHERE issuer_id = $1 AND model = $2 AND serie = $3 AND number = $4 AND status <> 'rejected'`,
    [s.issuerId, s.model, s.serie, s.number],
  );
  return r.rows[0];
}

/** The account's issuers with this CNPJ (one per environment at most: issuer_exists). */
export async function findIssuersByCnpj(db: Queryable, accountId: string, cnpj: string): Promise<Array<{ id: string; ambiente: string }>> {
  const r = await db.query<{ id: string; ambiente: string }>('SELECT id, ambiente FROM issuers WHERE account_id = $1 AND cnpj = $2 ORDER BY id', [accountId, cnpj]);
  return r.rows;
}
