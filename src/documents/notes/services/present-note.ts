import type { Note } from '../domain/note.js';

/**
 * The fields every note record of the API has, NFC-e or NF-e (docs/guides/api.md#contract-fields fields by state, docs/decisions.md#api-conventions):
 * links and protocol appear once authorized; a rejection explains itself; money in reais.
 */
export function presentNoteCore<O extends 'nfce' | 'nfe'>(row: Note, baseUrl: string, object: O) {
  const authorized = row.status === 'authorized' || row.status === 'canceled';
  // A note issued in offline contingency is a valid document before the authority sees it (docs/fiscal/offline-contingency.md):
  // its key, XML and DANFE are what the point of sale prints and hands over.
  const printable = authorized || row.status === 'contingency';
  const links = printable
    ? {
        danfe_url: `${baseUrl}/v1/${object}/${row.id}/danfe.pdf`,
        xml_url: `${baseUrl}/v1/${object}/${row.id}/xml`,
        ...(row.qrcode_url ? { qrcode_url: row.qrcode_url } : {}),
      }
    : {};
  const cancellation = row.cancellation && 'protocolo' in row.cancellation ? row.cancellation : null;
  // A processing note's key is withheld because it may still change (an NF-e re-issued for the SVC gets
  // tpEmis 6/7 and another key, docs/fiscal/svc.md). An NF-e issued in EPEC keeps its tpEmis 4 key from
  // signing to authorization: its EPEC and then the state use that very key (NT 2014.001 3.1, docs/fiscal/epec.md).
  const finalKey = row.status === 'processing' && row.model === 55 && row.tp_emis === 4;
  return {
    id: row.id,
    object,
    status: row.status,
    external_ref: row.external_ref,
    issuer_id: row.issuer_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ambiente: row.tp_amb === 1 ? ('producao' as const) : ('homologacao' as const),
    model: row.model,
    serie: row.serie,
    number: row.number,
    access_key: printable || finalKey || row.status === 'denied' ? row.access_key : null,
    protocolo: row.protocolo,
    authorized_at: row.authorized_at?.toISOString() ?? null,
    ...links,
    totals: ordered(row.totals, TOTAL_ORDER),
    items: row.items.map((i, n) => presentItem(i as StoredItem, requestItems(row.request)[n])),
    rejection: row.rejection,
    cancellation,
    cancellation_pending: row.cancellation !== null && !('protocolo' in row.cancellation),
  };
}

// jsonb stores keys in its own order; answer in the layout's (ICMSTot) order so people can read it.
const TOTAL_ORDER = [
  'vProd', 'vDesc', 'vBC', 'vICMS', 'vICMSDeson', 'vFCP', 'vBCST', 'vST', 'vFCPST', 'vFCPUFDest', 'vICMSUFDest', 'vICMSUFRemet',
  'vFrete', 'vSeg', 'vOutro', 'vII', 'vIPI', 'vIPIDevol', 'vPIS', 'vCOFINS', 'vNF', 'vTroco', 'vTotTrib', 'vIBS', 'vCBS', 'vIS', 'vNFTot',
];
const ITEM_ORDER = ['nItem', 'vProd', 'vDesc', 'vICMS', 'vST', 'vIPI', 'vPIS', 'vCOFINS', 'vIBS', 'vCBS', 'vIS', 'vTotTrib'];

function ordered<V>(obj: Record<string, V>, order: readonly string[]): Record<string, V> {
  const out: Record<string, V> = {};
  for (const k of order) if (k in obj) out[k] = obj[k]!;
  for (const k of Object.keys(obj)) if (!(k in out)) out[k] = obj[k]!;
  return out;
}

/** An item as stored at emission: its figures and, with the reform groups, the CST / cClassTrib written. */
type StoredItem = Record<string, number> & { nItem: number; reform?: { cst: string; class_code: string } };
type RequestItem = { reform?: { cst?: string; class_code?: string } } | undefined;

function requestItems(request: unknown): RequestItem[] {
  const items = (request as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? (items as RequestItem[]) : [];
}

/**
 * The item's figures, and which IBS/CBS CST and cClassTrib the note carries: `source` 'request' when the sale
 * named them, 'default' when the gateway proposed them (000 / 000001, or 410 / 410004 on an export CFOP:
 * docs/fiscal/tax-reform.md, "Defaults per item").
 */
function presentItem(item: StoredItem, sent: RequestItem) {
  const { reform, ...figures } = item;
  const named = sent?.reform?.cst !== undefined || sent?.reform?.class_code !== undefined;
  return { nItem: item.nItem, ...ordered(figures, ITEM_ORDER), ...(reform ? { reform: { ...reform, source: named ? ('request' as const) : ('default' as const) } } : {}) };
}
