import { notFound } from '../../../kernel/errors.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { getInutilization } from '../../../platform/storage/repositories/inutilization-repository.js';
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
