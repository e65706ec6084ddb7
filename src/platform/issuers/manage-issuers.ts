import { ApiError, notFound } from '../../kernel/errors.js';
import { assertPlanAllows } from '../billing/plan-limits.js';
import { assertIssuerActive } from './archive-issuer.js';
import { page } from '../../kernel/page.js';
import { newId } from '../../kernel/ids.js';
import { DuplicateIssuerError, findIssuer, insertIssuer, listIssuers, updateIssuer, type IssuerChanges } from '../../infra/storage/repositories/issuer-repository.js';
import type { RegimeTributario, RegisteredIssuer } from '../../kernel/issuer.js';
import { stateFacts } from '../../fiscal/states/states.js';
import type { IssuerServiceDeps } from './issuer-deps.js';
import { mergeNfseSettings } from './issuer-nfse-settings.js';
import type { NfseSettingsInput } from './issuer-nfse-input.js';
import {
  checkIssuerNames,
  FieldProblems,
  normalizeAddress,
  normalizeCnpj,
  normalizeIe,
  normalizeUf,
  type AddressInput,
  type NewIssuerInput,
} from './issuer-validation.js';

type Deps = Pick<IssuerServiceDeps, 'db' | 'clock' | 'hooks'>;

export async function createIssuer(deps: Deps, accountId: string, input: NewIssuerInput): Promise<RegisteredIssuer> {
  const problems = new FieldProblems();
  const cnpj = normalizeCnpj(input.cnpj, problems);
  checkIssuerNames(problems, input);
  const ie = normalizeIe(input.ie, problems, input.uf.trim().toUpperCase());
  const uf = normalizeUf(input.uf, problems);
  const endereco = input.endereco ? normalizeAddress(input.endereco, uf, problems) : null;
  const nfse = input.nfse ? mergeNfseSettings(null, input.nfse, input.regime_tributario, problems) : null;
  checkNfceContingency(input.contingency, uf, problems);
  const nfeContingency = input.nfe_contingency ?? 'svc';
  if (nfeContingency !== 'svc' && nfeContingency !== 'epec') problems.add('nfe_contingency', 'must be svc or epec');
  problems.throwIfAny();
  await assertPlanAllows(deps.db, accountId, 'issuers', deps.clock.now());
  const id = newId('iss');
  try {
    await insertIssuer(deps.db, {
      id,
      account_id: accountId,
      cnpj,
      razao_social: input.razao_social.trim(),
      nome_fantasia: input.nome_fantasia?.trim() || null,
      ie,
      uf,
      ambiente: input.ambiente,
      regime_tributario: input.regime_tributario,
      endereco,
      nfse,
      contingency: input.contingency ? { mode: input.contingency.mode, wait_seconds: input.contingency.wait_seconds ?? 3 } : null,
      nfe_contingency: nfeContingency,
      now: deps.clock.now(),
    });
  } catch (err) {
    if (!(err instanceof DuplicateIssuerError)) throw err;
    throw new ApiError('issuer_exists', `This account already has an issuer with this CNPJ in ${input.ambiente}`, [
      { field: 'cnpj', message: `already registered as ${err.existingId} in ambiente ${input.ambiente}` },
    ]);
  }
  const row = (await findIssuer(deps.db, accountId, id))!;
  await deps.hooks?.onIssuerSaved?.(row);
  return row;
}

export async function getIssuer(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<RegisteredIssuer> {
  const row = await findIssuer(deps.db, accountId, id);
  if (!row) throw notFound('Issuer');
  return row;
}

export async function listIssuerPage(deps: Pick<Deps, 'db'>, accountId: string, limit: number, startingAfter?: string, archived?: boolean) {
  return page(await listIssuers(deps.db, accountId, limit + 1, startingAfter, archived), limit);
}

export interface IssuerPatch {
  razao_social?: string;
  nome_fantasia?: string | null;
  ie?: string;
  regime_tributario?: RegimeTributario;
  /** Replaces the whole address. */
  endereco?: AddressInput;
  /** Merged into the stored settings (fields sent replace, others stay); null removes them. */
  nfse?: NfseSettingsInput | null;
  /** Replaces the contingency settings; null returns to the environment's default. */
  contingency?: { mode: 'off' | 'offline' | 'epec'; wait_seconds?: number } | null;
  /** The NF-e contingency while the state's authorizer is down: svc or epec (docs/fiscal/epec.md). */
  nfe_contingency?: 'svc' | 'epec';
  cnpj?: string;
  uf?: string;
  ambiente?: string;
}

// The CNPJ, state and environment identify the issuer to the authority (numbering, certificate, CSC,
// access keys); changing them would silently change which notes belong together. A new issuer is needed.
const IMMUTABLE = ['cnpj', 'uf', 'ambiente'] as const;

export async function patchIssuer(deps: Deps, accountId: string, id: string, patch: IssuerPatch): Promise<RegisteredIssuer> {
  // `nfse` is merged into the stored settings: the row is held while the merge is computed and written.
  await deps.db.transaction(async (tx) => {
    const current = await findIssuer(tx, accountId, id, { forUpdate: true });
    if (!current) throw notFound('Issuer');
    assertIssuerActive(current);
    await updateIssuer(tx, accountId, id, issuerChanges(current, patch), deps.clock.now());
  });
  const row = await getIssuer(deps, accountId, id);
  await deps.hooks?.onIssuerSaved?.(row);
  return row;
}

/** The columns a PATCH changes, or a validation_error naming every bad field. */
function issuerChanges(current: RegisteredIssuer, patch: IssuerPatch): IssuerChanges {
  const problems = new FieldProblems();
  for (const field of IMMUTABLE) {
    const given = patch[field];
    if (given === undefined) continue;
    const same = field === 'cnpj' ? normalizeCnpj(given, new FieldProblems()) === current.cnpj : given.toUpperCase() === current[field].toUpperCase();
    if (!same) problems.add(field, 'cannot be changed; register another issuer instead');
  }
  checkIssuerNames(problems, patch);
  const changes: IssuerChanges = {};
  if (patch.razao_social !== undefined) changes.razao_social = patch.razao_social.trim();
  if (patch.nome_fantasia !== undefined) changes.nome_fantasia = patch.nome_fantasia?.trim() || null;
  if (patch.ie !== undefined) changes.ie = normalizeIe(patch.ie, problems, current.uf);
  if (patch.regime_tributario !== undefined) changes.regime_tributario = patch.regime_tributario;
  if (patch.endereco !== undefined) changes.endereco = normalizeAddress(patch.endereco, current.uf, problems);
  if (patch.nfse === null) changes.nfse = null;
  else if (patch.nfse !== undefined) changes.nfse = mergeNfseSettings(current.nfse, patch.nfse, patch.regime_tributario ?? current.regime_tributario, problems);
  checkNfceContingency(patch.contingency, current.uf, problems);
  if (patch.contingency !== undefined) changes.contingency = patch.contingency && { mode: patch.contingency.mode, wait_seconds: patch.contingency.wait_seconds ?? 3 };
  if (patch.nfe_contingency !== undefined) {
    if (patch.nfe_contingency === 'svc' || patch.nfe_contingency === 'epec') changes.nfe_contingency = patch.nfe_contingency;
    else problems.add('nfe_contingency', 'must be svc or epec');
  }
  problems.throwIfAny();
  return changes;
}

/**
 * MOC B22-34 (714): tpEmis 4 on an NFC-e only where the state runs an NFC-e EPEC (fiscal/states/states.ts nfceEpec,
 * docs/fiscal/offline-contingency.md#epec-sp); anywhere else every sale under `epec` would be refused.
 */
function checkNfceContingency(contingency: { mode: string } | null | undefined, uf: string, problems: FieldProblems): void {
  if (contingency?.mode !== 'epec' || stateFacts(uf)?.nfceEpec) return;
  problems.add('contingency.mode', `epec needs a state that runs an NFC-e EPEC service (SP); ${uf.trim().toUpperCase()} runs none (MOC B22-34, 714): choose offline or off`, 'B22-34');
}
