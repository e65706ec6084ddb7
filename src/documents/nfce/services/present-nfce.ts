import type { NfceRow } from '../../../platform/storage/repositories/nfce-repository.js';

/**
 * The NFC-e record of the API (SPEC 2 fields by state, DESIGN 4): links and protocol appear once
 * authorized; a rejection explains itself; money in reais.
 */
export function presentNfce(row: NfceRow, baseUrl: string) {
  const authorized = row.status === 'authorized' || row.status === 'canceled';
  const links = authorized
    ? {
        danfe_url: `${baseUrl}/v1/nfce/${row.id}/danfe.pdf`,
        xml_url: `${baseUrl}/v1/nfce/${row.id}/xml`,
        // Every NFC-e has its QR code (infNFeSupl); only model-55 rows leave it null.
        qrcode_url: row.qrcode_url!,
      }
    : {};
  const cancellation = row.cancellation && 'protocolo' in row.cancellation ? row.cancellation : null;
  return {
    id: row.id,
    object: 'nfce' as const,
    status: row.status,
    external_ref: row.external_ref,
    issuer_id: row.issuer_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ambiente: row.tp_amb === 1 ? ('producao' as const) : ('homologacao' as const),
    model: row.model,
    serie: row.serie,
    number: row.number,
    access_key: authorized || row.status === 'denied' ? row.access_key : null,
    protocolo: row.protocolo,
    authorized_at: row.authorized_at?.toISOString() ?? null,
    ...links,
    totals: ordered(row.totals, TOTAL_ORDER),
    items: row.items.map((i) => ordered(i as Record<string, number>, ITEM_ORDER)),
    rejection: row.rejection,
    cancellation,
    cancellation_pending: row.cancellation !== null && !('protocolo' in row.cancellation),
  };
}

// jsonb stores keys in its own order; answer in the layout's (ICMSTot) order so people can read it.
const TOTAL_ORDER = ['vProd', 'vDesc', 'vICMS', 'vST', 'vFCPST', 'vPIS', 'vCOFINS', 'vNF', 'vTroco', 'vTotTrib', 'vIBS', 'vCBS', 'vIS', 'vNFTot'];
const ITEM_ORDER = ['nItem', 'vProd', 'vDesc', 'vICMS', 'vST', 'vPIS', 'vCOFINS', 'vIBS', 'vCBS', 'vIS', 'vTotTrib'];

function ordered(obj: Record<string, number>, order: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of order) if (k in obj) out[k] = obj[k]!;
  for (const k of Object.keys(obj)) if (!(k in out)) out[k] = obj[k]!;
  return out;
}

export type NfceView = ReturnType<typeof presentNfce>;
