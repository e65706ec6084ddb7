// The note: the one document type every family (NFC-e, NF-e, NFS-e) issues through the shared engine
// (documents/notes/services). Defined here, in the domain, so use cases speak of a Note and not of a table;
// the notes table's columns carry these names, so documents/notes/storage maps a row to a Note field for field.
import type { NoteStatus } from '../../../kernel/note-status.js';

export type { NoteStatus } from '../../../kernel/note-status.js';

/** CC-e state of a note: each letter replaces the previous one, so `current` is the text in force. */
export interface NoteCorrections {
  current: { sequence: number; text: string; protocolo: string; registered_at: string } | null;
  letters: Array<{
    sequence: number;
    text: string;
    status: 'pending' | 'registered' | 'rejected';
    requested_at: string;
    protocolo: string | null;
    registered_at: string | null;
    rejection: { code: string; message: string } | null;
  }>;
}

/** A fiscal document the gateway issued (NFC-e, NF-e or NFS-e) and where it stands with its authority. */
export interface Note {
  id: string;
  account_id: string;
  issuer_id: string;
  external_ref: string | null;
  status: NoteStatus;
  model: number;
  serie: number;
  number: number;
  access_key: string;
  tp_amb: number;
  tp_emis: number;
  dh_emi: string;
  /** The package that validated the XML (fiscal/xml/xsd/schema-cache.ts SchemaPackage; schema-packages.ts picks it by date). */
  schema_package: 'PL_009' | 'PL_010' | 'PL_010e' | 'NFSe_v1.01';
  request: unknown;
  totals: Record<string, number>;
  items: unknown[];
  signed_xml: string;
  /** An SVC NF-e's dhCont and xJust elements, where a summary row has no signed_xml (note-repository.ts SUMMARY). */
  svc_contingency_xml?: string | null;
  digest_value: string;
  /** NFC-e only (infNFeSupl); null for an NF-e. */
  qrcode_url: string | null;
  url_chave: string | null;
  protocolo: string | null;
  authorized_at: Date | null;
  proc_xml: string | null;
  rejection: { code: string; message: string; field: string | null; hint: string | null } | null;
  /** NFS-e: `reason_code` (cMotivo of e101101) and, when a substitute replaced it (e105102), `substituted_by`. */
  cancellation:
    | { protocolo: string; reason: string; canceled_at: string; reason_code?: string; substituted_by?: string }
    | { status: 'pending'; reason: string; requested_at: string; reason_code?: string }
    | null;
  cancel_proc_xml: string | null;
  attempts: number;
  /** nRec of the asynchronous lot holding the note, while it is processed. */
  receipt?: string | null;
  /** NF-e only: the correction letters (CC-e) registered or on their way. */
  corrections?: NoteCorrections | null;
  /** NFC-e issued in offline contingency (tpEmis 9, migration 18); null otherwise. */
  contingency?: NoteContingency | null;
  /** NF-e issued with tpEmis 4: its EPEC (event 110140) as the Ambiente Nacional registered it (migration 55); null before, or otherwise. */
  epec?: NoteEpec | null;
  /** NFS-e only: the 50-digit key and the number Sefin assigns on authorization (migration 17); `access_key` holds the DPS Id. */
  nfse_key?: string | null;
  nfse_number?: string | null;
  scenario: string | null;
  idempotency_key: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Why and when an NFC-e went to offline contingency (docs/fiscal/offline-contingency.md), its transmission deadline, and what
 * became of the normal-emission attempt it replaced (its number and key are no longer the note's).
 */
export interface NoteContingency {
  reason: string;
  /** dhCont: when the note entered contingency (ISO 8601). */
  entered_at: string;
  /** The transmission deadline (ISO 8601). */
  deadline_at: string;
  /** When the authority answered it for good (authorized, or refused: the note is then rejected). */
  transmitted_at?: string | null;
  /** Who issued it: the gateway's autopilot, or the point of sale itself (POST /v1/nfce/offline); absent = gateway. */
  source?: 'gateway' | 'client';
  /** A point of sale's note received past deadline_at (still transmitted: the authority may answer 150, docs/fiscal/offline-contingency.md). */
  late?: boolean;
  /** A contingency note the authority refused: when its number was voided (nfce.contingency-void). */
  number_voided_at?: string | null;
  /** When the QR code was signed again with the issuer's current CSC (462/463/464), once. */
  qr_refreshed_at?: string | null;
  /** When the gateway warned that the deadline is near (nfce.contingency_deadline), once. */
  deadline_warned_at?: string | null;
  first_attempt?: {
    serie: number;
    number: number;
    access_key: string;
    /**
     * pending until settled: canceled_by_substitution (it had been authorized: 110112), voided (inutilization),
     * or authorized_kept (authorized, and the contingency document refused: the first attempt is the sale's note).
     */
    outcome: 'pending' | 'canceled_by_substitution' | 'voided' | 'authorized_kept';
    protocolo?: string | null;
    settled_at?: string | null;
  } | null;
}

/**
 * The registered EPEC of an NF-e issued with tpEmis 4 (docs/fiscal/epec.md): its protocol, when, and the procEventoNFe.
 * All three null: the Ambiente Nacional holds the EPEC (it answered 573 or 485 after an answer was lost) and its
 * protocol is not known yet; the state's consultation of the key gives it (124, NT 2014.001 5.6).
 */
export interface NoteEpec {
  protocol: string | null;
  /** dhRegEvento as the Ambiente Nacional wrote it (or the gateway's time when absent). */
  registered_at: string | null;
  proc_xml: string | null;
}
