import type { Queryable } from '../../../infra/storage/db.js';

/**
 * What a monthly export reads (platform/exports): each table holding a fiscal XML of one issuer, one
 * page at a time in id order (keyset), so a month of any size is read in bounded pieces. The month of
 * a note is the one of its dhEmi as written in the XML (the issuer's local date); of a voided range,
 * the one of the authority's dhRecbto in its retInutNFe; of a received note, its dhEmi.
 */
export interface ExportNoteRow {
  id: string;
  model: number;
  serie: number;
  number: number;
  access_key: string;
  nfse_key: string | null;
  nfse_number: string | null;
  status: string;
  dh_emi: string;
  totals: Record<string, number>;
  protocolo: string | null;
  proc_xml: string;
  cancel_proc_xml: string | null;
}

/** Statuses whose XML is a fiscal document to keep: authorized, canceled (with its event) and denied (the authority's denial). */
const KEPT_STATUSES = ['authorized', 'canceled', 'denied'];

export async function exportNotesPage(db: Queryable, f: { issuerId: string; month: string; models: number[]; after: string; limit: number }): Promise<ExportNoteRow[]> {
  const r = await db.query<ExportNoteRow>(
    `SELECT id, model, serie, number, access_key, nfse_key, nfse_number, status, dh_emi, totals, protocolo, proc_xml, cancel_proc_xml
       FROM notes
      WHERE issuer_id = $1 AND substring(dh_emi, 1, 7) = $2 AND id > $3 AND model = ANY($4) AND status = ANY($5) AND proc_xml IS NOT NULL
      ORDER BY id LIMIT $6`,
    [f.issuerId, f.month, f.after, f.models, KEPT_STATUSES, f.limit],
  );
  return r.rows;
}

export interface ExportEventRow { id: string; access_key: string; tp_evento: string; n_seq: number; protocolo: string | null; proc_xml: string; dh_emi: string }

/** Registered NF-e events of the month's own notes other than the cancellation (kept on the note): CC-e 110110, the reform's issuer events 112110-112150 and their cancellations 110001, the delivery events. */
export async function exportEventsPage(db: Queryable, f: { issuerId: string; month: string; after: string; limit: number }): Promise<ExportEventRow[]> {
  const r = await db.query<ExportEventRow>(
    `SELECT e.id, e.access_key, e.tp_evento, e.n_seq, e.protocolo, e.proc_xml, n.dh_emi
       FROM nfe_events e JOIN notes n ON n.id = e.note_id
      WHERE e.issuer_id = $1 AND substring(n.dh_emi, 1, 7) = $2 AND e.id > $3 AND e.status = 'registered' AND e.proc_xml IS NOT NULL
        AND n.model = 55
      ORDER BY e.id LIMIT $4`,
    [f.issuerId, f.month, f.after, f.limit],
  );
  return r.rows;
}

export interface ExportVoidRow { id: string; model: number; serie: number; numero_inicial: number; numero_final: number; protocolo: string | null; proc_xml: string; month: string }

const INUT_MONTH = `substring(proc_xml from '<dhRecbto>([0-9]{4}-[0-9]{2})')`;

export async function exportVoidsPage(db: Queryable, f: { issuerId: string; month: string; models: number[]; after: string; limit: number }): Promise<ExportVoidRow[]> {
  const r = await db.query<ExportVoidRow>(
    `SELECT id, model, serie, numero_inicial, numero_final, protocolo, proc_xml, ${INUT_MONTH} AS month
       FROM inutilizations
      WHERE issuer_id = $1 AND status = 'voided' AND proc_xml IS NOT NULL AND ${INUT_MONTH} = $2 AND id > $3 AND model = ANY($4)
      ORDER BY id LIMIT $5`,
    [f.issuerId, f.month, f.after, f.models, f.limit],
  );
  return r.rows;
}

export interface ExportReceivedRow { id: string; access_key: string; issuer_cnpj: string | null; issued_at: string; total: string | null; situation: string | null; proc_xml: string }

/** Received NF-e whose full nfeProc was downloaded (a summary alone is not the document). */
export async function exportReceivedPage(db: Queryable, f: { issuerId: string; month: string; after: string; limit: number }): Promise<ExportReceivedRow[]> {
  const r = await db.query<ExportReceivedRow>(
    `SELECT id, access_key, issuer_cnpj, issued_at, total, situation, proc_xml FROM nfe_received
      WHERE issuer_id = $1 AND substring(issued_at, 1, 7) = $2 AND proc_xml IS NOT NULL AND id > $3
      ORDER BY id LIMIT $4`,
    [f.issuerId, f.month, f.after, f.limit],
  );
  return r.rows;
}

/** How many files the export will hold (each note 1, plus 1 with a cancellation event), for its progress. */
export async function exportFileCount(db: Queryable, f: { issuerId: string; month: string; models: number[]; events: boolean; voids: number[]; received: boolean }): Promise<number> {
  const r = await db.query<{ n: string }>(
    `SELECT (SELECT count(*) + count(cancel_proc_xml) FROM notes
              WHERE issuer_id = $1 AND substring(dh_emi, 1, 7) = $2 AND model = ANY($3) AND status = ANY($4) AND proc_xml IS NOT NULL)
          + (SELECT CASE WHEN $5 THEN count(*) ELSE 0 END FROM nfe_events e JOIN notes n ON n.id = e.note_id
              WHERE e.issuer_id = $1 AND substring(n.dh_emi, 1, 7) = $2 AND e.status = 'registered' AND e.proc_xml IS NOT NULL AND e.tp_evento = '110110' AND n.model = 55)
          + (SELECT count(*) FROM inutilizations WHERE issuer_id = $1 AND status = 'voided' AND proc_xml IS NOT NULL AND ${INUT_MONTH} = $2 AND model = ANY($6))
          + (SELECT CASE WHEN $7 THEN count(*) ELSE 0 END FROM nfe_received WHERE issuer_id = $1 AND substring(issued_at, 1, 7) = $2 AND proc_xml IS NOT NULL) AS n`,
    [f.issuerId, f.month, f.models, KEPT_STATUSES, f.events, f.voids, f.received],
  );
  return Number(r.rows[0]!.n);
}
