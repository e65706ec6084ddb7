import type { Note } from '../../notes/domain/note.js';

// Figures in reais, in the order of the NFS-e's valores (TCValoresNFSe), then of its IBS/CBS group (TCRTCIBSCBS)
// so people can read them.
const FIGURE_ORDER = ['vServ', 'vDescIncond', 'vDescCond', 'vDR', 'vBC', 'vISSQN', 'vRetISSQN', 'vRetPisCofins', 'vRetFed', 'vLiq', 'vBCIBSCBS', 'vIBSUF', 'vIBSMun', 'vIBSTot', 'vCBS', 'vTotNF'];

/**
 * GET /v1/nfse/:id and the nfse.* webhooks (docs/guides/api.md#contract-idempotency). The DPS is the gateway's document
 * from the start (`dps.id` is the handle Sefin knows it by, docs/fiscal/nfse-national.md#dps); the NFS-e key and number exist
 * once Sefin authorizes (docs/fiscal/nfse-national.md#access-key). The national NFS-e has no verification code (only municipal
 * systems had cVerifNFSeMun): the 50-digit key, printed and in the QR code, is what a taker checks.
 */
export function presentNfse(row: Note, baseUrl: string) {
  const authorized = row.status === 'authorized' || row.status === 'canceled';
  const totals = row.totals;
  const figures: Record<string, number> = {};
  for (const k of FIGURE_ORDER) if (k in totals) figures[k] = totals[k]!;
  const c = row.cancellation && 'protocolo' in row.cancellation ? row.cancellation : null;
  const cancellation = c
    ? { reason_code: c.reason_code ?? null, reason: c.reason, canceled_at: c.canceled_at, event_id: c.protocolo || null, substituted_by: c.substituted_by ?? null }
    : null;
  return {
    id: row.id,
    object: 'nfse' as const,
    // An NFS-e is never denied (a 4.00 state): Sefin authorizes or refuses.
    status: row.status as 'processing' | 'authorized' | 'rejected' | 'canceled',
    external_ref: row.external_ref,
    issuer_id: row.issuer_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ambiente: row.tp_amb === 1 ? ('producao' as const) : ('homologacao' as const),
    dps: { id: row.access_key, serie: row.serie, number: row.number, issued_at: row.dh_emi },
    access_key: row.nfse_key ?? null,
    number: row.nfse_number ?? null,
    authorized_at: row.authorized_at?.toISOString() ?? null,
    ...(authorized
      ? { xml_url: `${baseUrl}/v1/nfse/${row.id}/xml`, danfse_url: `${baseUrl}/v1/nfse/${row.id}/danfse.pdf` }
      : {}),
    values: figures,
    tomador: takerOf(row.request),
    rejection: row.rejection,
    cancellation,
    cancellation_pending: row.cancellation !== null && 'status' in row.cancellation && row.cancellation.status === 'pending',
  };
}

/** The taker as the DPS named them (an NFS-e may have none): name and CNPJ, CPF or NIF as sent. */
function takerOf(request: unknown): { name: string | null; tax_id: string | null } | null {
  const taker = (request as { tomador?: { name?: string; cnpj?: string; cpf?: string; nif?: string } } | null)?.tomador;
  if (!taker || typeof taker !== 'object') return null;
  return { name: taker.name ?? null, tax_id: taker.cnpj ?? taker.cpf ?? taker.nif ?? null };
}

export type NfseRecord = ReturnType<typeof presentNfse>;
