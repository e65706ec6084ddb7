import type { Queryable } from '../../infra/storage/db.js';
import type { ExportKind } from './storage/export-repository.js';
import { exportEventsPage, exportNotesPage, exportReceivedPage, exportVoidsPage, type ExportNoteRow } from './storage/export-sources.js';
import { EXPORT_PAGE_ROWS } from './export-rules.js';

/** One file of an export and the line the manifest gives it. */
export interface ExportFile {
  path: string;
  xml: string;
  kind: 'nfce' | 'nfe' | 'nfse' | 'cancellation' | 'correction' | 'event' | 'inutilization' | 'received';
  key: string;
  model: number;
  serie: number | null;
  number: string | null;
  status: string;
  issued_at: string | null;
  value: number | null;
  protocol: string | null;
}

const FOLDER: Record<number, 'nfce' | 'nfe' | 'nfse'> = { 65: 'nfce', 55: 'nfe', 99: 'nfse' };

/**
 * The files of a month, page by page (EXPORT_PAGE_ROWS rows per query). Each file is the XML exactly as
 * stored, never re-serialized, so every signature in it still verifies:
 *  - an authorized, canceled or denied NF-e / NFC-e: its nfeProc (signed NFe + protNFe, procNFe_v4.00.xsd);
 *  - a canceled one also its cancellation, procEventoNFe (110111, or 110112 for a substitution);
 *  - an NF-e's other registered events, procEventoNFe: correction letters (CC-e 110110, kind `correction`), the
 *    reform's issuer events (112110-112150) and the delivery events 110130/110131/110192/110193 (kind `event`);
 *  - an NFS-e: the NFS-e Sefin signed (the DPS inside) and, canceled, its registered event;
 *  - a voided range: ProcInutNFe (procInutNFe_v4.00.xsd);
 *  - a received NF-e whose full nfeProc was downloaded (NFeDistribuicaoDFe).
 */
export async function* exportFiles(
  db: Queryable,
  f: { issuerId: string; month: string; kinds: readonly ExportKind[]; noteModels: number[]; voidModels: number[] },
): AsyncGenerator<ExportFile> {
  const scope = { issuerId: f.issuerId, month: f.month, limit: EXPORT_PAGE_ROWS };
  if (f.noteModels.length > 0) {
    for (let after = ''; ;) {
      const rows = await exportNotesPage(db, { ...scope, models: f.noteModels, after });
      for (const n of rows) yield* noteFiles(n);
      if (rows.length < EXPORT_PAGE_ROWS) break;
      after = rows[rows.length - 1]!.id;
    }
  }
  if (f.kinds.includes('nfe')) {
    for (let after = ''; ;) {
      const rows = await exportEventsPage(db, { ...scope, after });
      for (const e of rows) {
        yield {
          path: `nfe/${e.access_key}-procEventoNFe-${e.tp_evento}-${e.n_seq}.xml`, xml: e.proc_xml, kind: e.tp_evento === '110110' ? 'correction' : 'event', key: e.access_key,
          model: 55, serie: null, number: null, status: 'registered', issued_at: e.dh_emi, value: null, protocol: e.protocolo,
        };
      }
      if (rows.length < EXPORT_PAGE_ROWS) break;
      after = rows[rows.length - 1]!.id;
    }
  }
  if (f.voidModels.length > 0) {
    for (let after = ''; ;) {
      const rows = await exportVoidsPage(db, { ...scope, models: f.voidModels, after });
      for (const v of rows) {
        const id = /Id="(ID\d+)"/.exec(v.proc_xml)?.[1] ?? `${v.model}-${v.serie}-${v.numero_inicial}-${v.numero_final}`;
        yield {
          path: `inutilizacao/${id}-procInutNFe.xml`, xml: v.proc_xml, kind: 'inutilization', key: id, model: v.model, serie: v.serie,
          number: `${v.numero_inicial}-${v.numero_final}`, status: 'voided', issued_at: null, value: null, protocol: v.protocolo,
        };
      }
      if (rows.length < EXPORT_PAGE_ROWS) break;
      after = rows[rows.length - 1]!.id;
    }
  }
  if (f.kinds.includes('received')) {
    for (let after = ''; ;) {
      const rows = await exportReceivedPage(db, { ...scope, after });
      for (const r of rows) {
        yield {
          path: `recebidas/${r.access_key}-nfeProc.xml`, xml: r.proc_xml, kind: 'received', key: r.access_key, model: 55,
          serie: Number(r.access_key.slice(22, 25)), number: String(Number(r.access_key.slice(25, 34))), status: r.situation ?? 'received',
          issued_at: r.issued_at, value: r.total === null ? null : Number(r.total), protocol: null,
        };
      }
      if (rows.length < EXPORT_PAGE_ROWS) break;
      after = rows[rows.length - 1]!.id;
    }
  }
}

function* noteFiles(n: ExportNoteRow): Generator<ExportFile> {
  const folder = FOLDER[n.model]!;
  const nfse = n.model === 99;
  const key = nfse ? (n.nfse_key ?? n.access_key) : n.access_key;
  const base = {
    key, model: n.model, serie: n.serie, number: nfse ? n.nfse_number : String(n.number), status: n.status, issued_at: n.dh_emi,
    value: (nfse ? n.totals.vServ : n.totals.vNF) ?? null, protocol: n.protocolo,
  };
  yield { ...base, path: `${folder}/${key}-${nfse ? 'nfse' : 'nfeProc'}.xml`, xml: n.proc_xml, kind: folder };
  if (n.cancel_proc_xml) {
    const tp = /<(?:\w+:)?tpEvento>(\d{6})</.exec(n.cancel_proc_xml)?.[1] ?? /<(?:\w+:)?e(10[15]10[12])>/.exec(n.cancel_proc_xml)?.[1] ?? 'evento';
    yield { ...base, path: `${folder}/${key}-${nfse ? 'evento' : 'procEventoNFe'}-${tp}.xml`, xml: n.cancel_proc_xml, kind: 'cancellation' };
  }
}
