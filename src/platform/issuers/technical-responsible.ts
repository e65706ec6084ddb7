import { notFound } from '../../kernel/errors.js';
import { cnpjProblem } from '../../fiscal/tax-id.js';
import type { SecretBox } from '../../infra/security/secret-box.js';
import {
  deleteTechnicalResponsible,
  findTechnicalResponsible,
  upsertTechnicalResponsible,
  type TechnicalResponsibleRecord,
} from '../../infra/storage/repositories/technical-responsible-repository.js';
import type { IssuerRespTec } from '../../kernel/issuer.js';
import { csrtAad, type IssuerServiceDeps } from './issuer-deps.js';
import { assertIssuerActive } from './archive-issuer.js';
import { checkIssuerText, FieldProblems } from './issuer-validation.js';
import { getIssuer } from './manage-issuers.js';

// The technical responsible (infRespTec, MOC ZD01-10, NT 2018.005; docs/fiscal/technical-responsible.md):
// the software house that wrote the issuing system. Set once for the account and, where an issuer uses
// another one, for that issuer. The CSRT a state issues is kept like the CSC: an envelope blob, shown
// again only as its id.

export interface TechnicalResponsibleInput {
  cnpj: string;
  contact: string;
  email: string;
  phone: string;
  /** Omitted: the stored CSRT stays; null: removed. */
  csrt?: { id: string; secret: string } | null | undefined;
}

export interface TechnicalResponsibleView {
  object: 'technical_responsible';
  /** Where it is set: the account (every issuer without its own) or this issuer. */
  scope: 'account' | 'issuer';
  issuer_id: string | null;
  cnpj: string;
  contact: string;
  email: string;
  phone: string;
  /** The CSRT id; the secret is never shown. */
  csrt: { id: string } | null;
  updated_at: string;
}

const present = (r: TechnicalResponsibleRecord): TechnicalResponsibleView => ({
  object: 'technical_responsible',
  scope: r.issuer_id ? 'issuer' : 'account',
  issuer_id: r.issuer_id,
  cnpj: r.cnpj,
  contact: r.contact,
  email: r.email,
  phone: r.phone,
  csrt: r.csrt_id ? { id: r.csrt_id } : null,
  updated_at: r.updated_at.toISOString(),
});

// The layout of infRespTec (MOC ZD02-ZD08, PL_009 TInfRespTec): CNPJ of 14 digits with its check
// digits (ZD02-10, 973), xContato 2-60, email 6-60, fone 6-14 digits, idCSRT 2 digits.
function normalize(input: TechnicalResponsibleInput): TechnicalResponsibleInput {
  const problems = new FieldProblems();
  const cnpj = input.cnpj.replace(/[.\-/\s]/g, '');
  problems.add('cnpj', /^[0-9]{14}$/.test(cnpj) ? cnpjProblem(cnpj) : 'must be 14 digits (the software house\'s CNPJ)');
  checkIssuerText(problems, 'contact', input.contact, 2, 60);
  const email = input.email.trim();
  problems.add('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length >= 6 && email.length <= 60 ? null : 'must be an e-mail address of 6 to 60 characters');
  const phone = input.phone.replace(/[\s()+\-.]/g, '');
  problems.add('phone', /^[0-9]{6,14}$/.test(phone) ? null : 'must be 6 to 14 digits including the area code');
  let csrt = input.csrt;
  if (csrt) {
    const id = csrt.id.trim();
    problems.add('csrt.id', /^[0-9]{1,2}$/.test(id) && Number(id) > 0 ? null : 'must be the CSRT id the state gave, 01 to 99');
    problems.add('csrt.secret', /^\S{1,100}$/.test(csrt.secret) ? null : 'must be the CSRT the state gave (1 to 100 characters, no spaces)');
    csrt = { id: id.padStart(2, '0'), secret: csrt.secret };
  }
  problems.throwIfAny();
  return { cnpj, contact: input.contact.trim(), email, phone, csrt };
}

type Deps = Pick<IssuerServiceDeps, 'db' | 'secrets' | 'clock'>;

async function ownerOf(deps: Deps, accountId: string, issuerId: string | null, write: boolean): Promise<string> {
  if (!issuerId) return accountId;
  const issuer = await getIssuer(deps, accountId, issuerId);
  if (write) assertIssuerActive(issuer);
  return issuer.id;
}

/** PUT: stores the account's (issuerId null) or an issuer's technical responsible. */
export async function setTechnicalResponsible(deps: Deps, accountId: string, issuerId: string | null, input: TechnicalResponsibleInput): Promise<TechnicalResponsibleView> {
  const owner = await ownerOf(deps, accountId, issuerId, true);
  const clean = normalize(input);
  const csrt = clean.csrt;
  const record = await upsertTechnicalResponsible(
    deps.db,
    {
      account_id: accountId,
      issuer_id: issuerId ? owner : null,
      cnpj: clean.cnpj,
      contact: clean.contact,
      email: clean.email,
      phone: clean.phone,
      csrt_id: csrt ? csrt.id : null,
      csrt_blob: csrt ? await deps.secrets.encrypt(Buffer.from(csrt.secret, 'utf8'), csrtAad(owner), deps.secrets.custody) : null,
      updated_at: deps.clock.now(),
    },
    csrt === undefined,
  );
  return present(record);
}

/** GET: the account's, or the one an issuer's sales carry (its own, else the account's); null when none is set. */
export async function getTechnicalResponsible(deps: Pick<Deps, 'db'>, accountId: string, issuerId: string | null): Promise<TechnicalResponsibleView | null> {
  const owner = await ownerOf(deps as Deps, accountId, issuerId, false);
  const found = (await findTechnicalResponsible(deps.db, accountId, issuerId ? owner : null)) ?? (issuerId ? await findTechnicalResponsible(deps.db, accountId, null) : undefined);
  return found ? present(found) : null;
}

/** DELETE: removes the account's, or an issuer's own (its sales then carry the account's). */
export async function removeTechnicalResponsible(deps: Pick<Deps, 'db'>, accountId: string, issuerId: string | null): Promise<void> {
  const owner = await ownerOf(deps as Deps, accountId, issuerId, false);
  if (!(await deleteTechnicalResponsible(deps.db, accountId, issuerId ? owner : null))) throw notFound('Technical responsible');
}

// The CSRT is opened once per stored version and kept, as the signing material is.
const CACHE_MAX = 1_000;
const opened = new Map<string, { at: number; token: string }>();

/** The CSRT of the technical responsible a sale carries, opened (emission only), or null. */
export async function openCsrt(secrets: SecretBox, r: IssuerRespTec | null): Promise<{ id: string; token: string } | null> {
  if (!r?.csrt_id || !r.csrt_blob) return null;
  const key = `${r.owner_id}\u0000${r.version}`;
  const hit = opened.get(key);
  if (hit && Date.now() - hit.at < secrets.openedMaxAgeMs) return { id: r.csrt_id, token: hit.token };
  const token = (await secrets.decrypt(r.csrt_blob, csrtAad(r.owner_id))).toString('utf8');
  if (opened.size >= CACHE_MAX) opened.delete(opened.keys().next().value as string);
  opened.set(key, { at: Date.now(), token });
  return { id: r.csrt_id, token };
}

