import { ufCode } from '../../../fiscal/sefaz/endpoints.js';
import { buildInutilization, justificationProblem } from '../../../fiscal/xml/events/index.js';
import { ApiError, notFound } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import type { InutilizationRow } from '../storage/inutilization-repository.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { retireRange, usedNumbersInRange } from '../../../infra/storage/repositories/numbering-repository.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import { issuerReadinessProblems } from '../../../platform/issuers/issuer-view.js';
import { assertIssuerActive } from '../../../platform/issuers/archive-issuer.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { NFCE_MODEL, type InutilizeDeps } from './nfce-deps.js';
import { procInutNfeXml } from '../../notes/services/proc-files.js';
import { explainAuthorityRejection } from '../../notes/services/rejection.js';

/** The models inutNFe voids (leiauteInutNFe_v4.00.xsd `mod`: 55 NF-e, 65 NFC-e). */
export type InutilizationModel = 55 | 65;

export interface InutilizationRequest {
  serie: number;
  numero_inicial: number;
  numero_final: number;
  justification: string;
}

/** What POST /v1/issuers/:id/inutilization and GET /v1/inutilizations/:id answer: the row, as JSON. */
export type InutilizationRecord = Omit<InutilizationRow, 'account_id' | 'rejection' | 'created_at'> & {
  object: 'inutilization';
  rejection: ReturnType<typeof explainAuthorityRejection> | null;
  created_at: string;
};

// Ranges this large are a typo more often than an intention; the authority has no lower limit we could source.
const MAX_RANGE = 10_000;

/**
 * POST /v1/issuers/:id/inutilization (NFC-e, model 65) and /nfe-inutilization (NF-e, model 55)
 * (docs/fiscal/inutilizacao.md): voids numbers of that model's series that were never used. Numbers this gateway holds
 * (authorized, in doubt, denied, canceled) are refused locally, listed; the authority's answer is
 * recorded either way (a voided range with its ProcInutNFe), and a voided range is never issued afterwards.
 */
export async function inutilizeNumbers(
  deps: InutilizeDeps, accountId: string, issuerId: string, req: InutilizationRequest, model: InutilizationModel = NFCE_MODEL,
): Promise<InutilizationRecord> {
  const { db, clock } = deps;
  const issuer = await findIssuer(db, accountId, issuerId);
  if (!issuer) throw notFound('Issuer');
  if (req.numero_final < req.numero_inicial) {
    throw new ApiError('validation_error', 'numero_final must not be lower than numero_inicial', [
      { field: 'numero_final', message: `is ${req.numero_final}, lower than numero_inicial ${req.numero_inicial}` },
    ]);
  }
  if (req.numero_final - req.numero_inicial + 1 > MAX_RANGE) {
    throw new ApiError('validation_error', `At most ${MAX_RANGE} numbers per request`, [{ field: 'numero_final', message: `the range has more than ${MAX_RANGE} numbers` }]);
  }
  // The layout's rules for xJust (Latin-1, 15-255 after trimming) are a 422 here, not a build error (500).
  const badJustification = justificationProblem(req.justification, 'justification');
  if (badJustification) throw new ApiError('validation_error', `justification ${badJustification.message}`, [badJustification]);
  const now = clock.now();
  assertIssuerActive(issuer);
  const notReady = issuerReadinessProblems(issuer, now).filter((p) => p.field !== 'csc');
  if (notReady.length > 0) throw new ApiError('issuer_not_ready', `Issuer ${issuerId} cannot sign yet`, notReady);
  const series = { issuerId, model, serie: req.serie };
  const used = await usedNumbersInRange(db, series, req.numero_inicial, req.numero_final);
  if (used.length > 0) {
    const shown = used.slice(0, 50).join(', ') + (used.length > 50 ? `, ... (${used.length} in all)` : '');
    throw new ApiError('validation_error', `Numbers already used by notes of this issuer cannot be voided: ${shown}`, [
      { field: 'numero_inicial', message: `the range contains used numbers: ${shown}` },
    ]);
  }
  const material = await loadIssuerSigningMaterial(db, deps.secrets, accountId, issuerId);
  if (!material?.certificate) throw new ApiError('issuer_not_ready', 'No certificate', [{ field: 'certificate', message: 'missing' }]);
  const tpAmb = issuer.ambiente === 'producao' ? 1 : 2;
  const year = localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf)).year;
  const signed = buildInutilization(
    {
      tpAmb,
      cUF: ufCode(issuer.uf)!,
      ano: String(year % 100).padStart(2, '0'),
      CNPJ: issuer.cnpj,
      mod: model,
      serie: req.serie,
      nNFIni: req.numero_inicial,
      nNFFin: req.numero_final,
      xJust: req.justification,
    },
    material.certificate,
  );
  const client = deps.authority.clientFor(material.certificate, accountId);
  const outcome = await client.inutilize({ uf: issuer.uf, model, tpAmb, signedInutNFeXml: signed.xml });
  if (outcome.kind === 'timeout' || outcome.kind === 'unavailable' || outcome.kind === 'unknown') {
    // Voiding is idempotent at the authority (563/256 for a repeat): the client may simply retry.
    throw new ApiError('authority_unavailable', `The authority did not answer the voiding request (${outcome.kind}); retry with the same Idempotency-Key`, undefined, { 'Retry-After': '5' });
  }
  const id = newId('inu');
  const voided = outcome.kind === 'voided';
  const rejection = voided ? null : explainAuthorityRejection(outcome.cStat, outcome.xMotivo);
  const record: InutilizationRecord = {
    id, object: 'inutilization', issuer_id: issuerId, model, serie: req.serie,
    numero_inicial: req.numero_inicial, numero_final: req.numero_final, justification: req.justification,
    status: voided ? 'voided' : 'rejected', protocolo: voided ? outcome.nProt : null, rejection, created_at: now.toISOString(),
  };
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO inutilizations (id, account_id, issuer_id, model, serie, numero_inicial, numero_final, justification, status, protocolo, proc_xml, rejection, created_at, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$13)`,
      [id, accountId, issuerId, model, req.serie, req.numero_inicial, req.numero_final, req.justification, record.status,
        record.protocolo, voided ? procInutNfeXml(signed.xml, outcome.retInutNFeXml) : null, rejection && JSON.stringify(rejection), now],
    );
    if (voided) {
      await retireRange(tx, series, req.numero_inicial, req.numero_final);
      await recordEvent(tx, { accountId, type: 'inutilization.completed', subjectType: 'inutilization', subjectId: id, data: record, at: now });
    }
  });
  return record;
}
