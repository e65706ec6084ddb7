import { ApiError, notFound } from '../../../kernel/errors.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { getInutilization, getInutilizationProcXml } from '../storage/inutilization-repository.js';
import type { InutilizationRecord } from './inutilize-numbers.js';

/** GET /v1/inutilizations/:id: the record POST /v1/issuers/:id/inutilization answered (and where search points). */
export async function findInutilization(deps: Pick<Ports, 'db'>, accountId: string, id: string): Promise<InutilizationRecord> {
  const row = await getInutilization(deps.db, accountId, id);
  if (!row) throw notFound('Inutilization');
  return {
    id: row.id, object: 'inutilization', issuer_id: row.issuer_id, model: row.model, serie: row.serie,
    numero_inicial: row.numero_inicial, numero_final: row.numero_final, justification: row.justification,
    status: row.status, protocolo: row.protocolo, rejection: row.rejection as InutilizationRecord['rejection'], created_at: row.created_at.toISOString(),
  };
}

/**
 * GET /v1/inutilizations/:id/xml: the ProcInutNFe (procInutNFe_v4.00.xsd: the signed inutNFe plus the
 * authority's signed retInutNFe, both as exchanged), the proof a range was voided; 409 for a rejected one.
 */
export async function inutilizationXml(deps: Pick<Ports, 'db'>, accountId: string, id: string): Promise<{ xml: string; fileName: string }> {
  const row = await getInutilizationProcXml(deps.db, accountId, id);
  if (!row) throw notFound('Inutilization');
  if (!row.proc_xml) throw new ApiError('invalid_state', `Inutilization ${id} is ${row.status}: the authority voided nothing, so there is no procInutNFe`);
  // The authorities' tools name the file after infInut's Id (ID + cUF, year, CNPJ, model, series, range).
  const inutId = /<infInut[^>]*\sId="ID([0-9A-Z]+)"/.exec(row.proc_xml)?.[1] ?? id;
  return { xml: row.proc_xml, fileName: `${inutId}-procInutNFe.xml` };
}
