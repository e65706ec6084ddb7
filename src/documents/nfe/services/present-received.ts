import type { ReceivedRow, ReceivedSummaryRow } from '../storage/nfe-received-repository.js';

/** A received NF-e as the API shows it: the summary the AN distributed, the manifestation, the XML once downloadable. */
export function presentReceived(row: ReceivedSummaryRow | ReceivedRow, baseUrl: string) {
  const hasXml = 'has_xml' in row ? row.has_xml : row.proc_xml !== null;
  return {
    id: row.id,
    object: 'nfe_received' as const,
    issuer_id: row.issuer_id,
    access_key: row.access_key,
    nsu: row.nsu,
    emitente: { cnpj: row.issuer_cnpj, name: row.issuer_name },
    issued_at: row.issued_at,
    total: row.total === null ? null : Number(row.total),
    situation: row.situation as 'authorized' | 'denied' | 'canceled' | null,
    manifestation: row.manifestation?.current ?? null,
    manifestations: row.manifestation?.sent ?? [],
    xml_url: hasXml ? `${baseUrl}/v1/nfe/received/${row.id}/xml` : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
