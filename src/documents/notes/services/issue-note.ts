import type { Note } from '../domain/note.js';
import { ApiError, type ErrorDetail } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { validateNfeOfItsDate, validateXml, type SchemaPackage } from '../../../fiscal/xml/xsd/validate-xml.js';
import { signingKeyProblem } from '../../../fiscal/certificate/signing-key.js';
import { breakerCaller } from '../../../fiscal/sefaz/breaker-key.js';
import { sqlState } from '../../../infra/storage/db.js';
import { isIssuerChanged } from '../../../infra/storage/repositories/issuer-repository.js';
import type { IssuerForEmission } from '../../../kernel/issuer.js';
import { findNoteByIdempotencyKey, releaseExpiredIdempotencyKeys, type NewNote } from '../storage/note-repository.js';
import { issuerReadinessProblems } from '../../../platform/issuers/issuer-view.js';
import { assertIssuerActive } from '../../../platform/issuers/archive-issuer.js';
import { seriesProblem } from '../../../platform/issuers/issuer-series.js';
import { loadIssuerSigningMaterial, type IssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { assertWithinQuota } from '../../../platform/billing/quota.js';
import { commitEmission } from './emission-batches.js';
import { breaksExternalRef, duplicateExternalRef } from './duplicate-external-ref.js';
import { emissionIssuer, keepEmissionIssuer, type EmissionIssuer } from './emission-issuers.js';
import type { NoteFamily } from './note-family.js';

/** POST /v1/nfce and /v1/nfe: storage, clock, key lifetime, the issuer's sealed key, and a nudge to the worker. */
export type IssueDeps = Pick<Ports, 'db' | 'clock' | 'config' | 'secrets' | 'wakeWorker'> & Partial<Pick<Ports, 'breaker'>>;

/** What the emission needs of a signed document of either model, whatever its family computed. */
export interface BuiltNote {
  xml: string;
  accessKey: string;
  tpEmis: number;
  dhEmi: string;
  digestValue: string;
  /**
   * NF-e/NFC-e: the oldest layout the XML fits (PL_010 when it needs the reform groups or an alphanumeric
   * CNPJ); the XML is validated against the package in force on its dhEmi (schema-packages.ts), which is
   * what is kept. NFS-e: its package, with `schemaFile`.
   */
  schemaPackage: SchemaPackage;
  /** The root schema when it is not the NF-e's (the NFS-e's DPS_v1.01.xsd). */
  schemaFile?: string;
  /** NFC-e only (infNFeSupl). */
  qrCodeUrl?: string | null;
  urlChave?: string | null;
  /** Figures in reais the API shows (vProd, vNF ...). */
  totals: object;
  items: unknown[];
}

/** What the emission reads of any family's request. */
export interface SaleRequest {
  issuer_id: string;
  external_ref?: string | undefined;
  /** Issue the sale even when a live note of the issuer holds its external_ref. */
  allow_duplicate_external_ref?: boolean | undefined;
  /** The issuer's series the sale is numbered in (NF-e, NFC-e); series 1 without it. */
  series?: number | undefined;
}

/** A family's document engine as the emission drives it: validate once, then build per number. */
export interface NoteEmitter<Request extends SaleRequest, Prepared> {
  family: NoteFamily;
  /** The series of a sale that names none (1): numbers are per issuer + model + series. */
  serie: number;
  /** The issuer's own series, where the family has one (the NFS-e's DPS series); else `serie`. */
  serieOf?(issuer: IssuerForEmission): number;
  /** The NFC-e signs its QR code with the CSC; the NF-e has none. */
  needsCsc: boolean;
  prepare(request: Request, issuer: IssuerForEmission): { ok: true; prepared: Prepared } | { ok: false; errors: ErrorDetail[] };
  build(prepared: Prepared, ctx: BuildContext): BuiltNote;
  /** The request field an XSD failure at `path` points to, or null. */
  fieldOfXsdPath(path: string, request: Request): string | null;
  /**
   * Whether the sale goes straight to offline contingency (NFC-e: the authority is known to be down
   * and the issuer allows it), and why. Families without contingency leave it out.
   */
  /** `caller`: breaker-key.ts breakerCaller of the issuer's certificate and account. */
  contingencyAtOnce?(deps: IssueDeps, issuer: IssuerForEmission, caller: string): Promise<IssueOptions['contingency']>;
  /**
   * Whether the sale is authorized online by another authority because the state's is known to be down
   * (NF-e: SVC, docs/fiscal/svc.md), with dhCont and xJust. The note is sent at once like any other:
   * nothing is stored as offline contingency.
   */
  onlineContingency?(deps: IssueDeps, issuer: IssuerForEmission, caller: string): Promise<{ at: Date; reason: string; kind?: 'svc' | 'epec' } | undefined>;
}

/** What a family's build gets besides the sale: the number, the time, the keys, and contingency when issued in it. */
export interface BuildContext {
  serie: number;
  nNF: number;
  emittedAt: Date;
  signingKey: NonNullable<IssuerSigningMaterial['certificate']>;
  csc: IssuerSigningMaterial['csc'];
  /**
   * Issued in contingency: offline (NFC-e, docs/fiscal/offline-contingency.md: tpEmis 9) or at the SVC
   * (NF-e, docs/fiscal/svc.md: tpEmis 6/7) or in EPEC (NF-e, docs/fiscal/epec.md: tpEmis 4), with dhCont (`at`) and xJust (`reason`).
   */
  contingency?: { at: Date; reason: string; kind?: 'svc' | 'epec' } | undefined;
  /** The technical responsible's CSRT, opened (infRespTec/hashCSRT, NT 2018.005), or null. */
  csrt: IssuerSigningMaterial['csrt'];
}

export interface IssueOptions {
  /** X-Sandbox-Scenario, kept with the note so the worker passes it to the simulator. */
  scenario?: string | undefined;
  idempotencyKey?: string | undefined;
  /**
   * Issue the sale straight in offline contingency (the authority is known to be down):
   * stored as `contingency` with its transmission deadline, its transmission job and the
   * `<object>.contingency_issued` event, in the same statement as the note.
   */
  contingency?: { reason: string; deadlineMs: number; kind?: 'epec' } | undefined;
}

/**
 * POST /v1/nfce, /v1/nfe, /v1/nfse (docs/decisions.md#the-way-a-sale-travels): validate everything before anything is reserved, then build and
 * sign the document for its number and store the note, its number and its authorization job in ONE
 * statement. Either all of it exists afterwards or none of it does. Sales of one series arriving
 * together share that statement (emission-batches.ts).
 */
export async function issueNote<R extends SaleRequest, P>(
  deps: IssueDeps,
  emitter: NoteEmitter<R, P>,
  accountId: string,
  request: R,
  opts: IssueOptions = {},
): Promise<Note> {
  const { db, clock } = deps;
  const key = opts.idempotencyKey;
  // One sale per Idempotency-Key is held by the notes' unique index, not by a read before every
  // sale: when a note already holds the key (its answer was lost in a crash after the commit, or a
  // request presumed dead raced this one) the statement stores nothing and the sale answers with
  // that note. A note older than the key's lifetime lets go of it and the sale goes ahead.
  // A sale whose external_ref a live note holds is refused the same way (duplicate-external-ref.ts),
  // after the key's own note, which answers a retry of the same sale.
  for (let released = false, refAgain = false; ;) {
    try {
      return await issueFromIssuer(deps, emitter, accountId, request, opts);
    } catch (err) {
      const ref = request.external_ref !== undefined && breaksExternalRef(err);
      if (sqlState(err) !== '23505' || (!key && !ref)) throw err;
      const liveSince = new Date(clock.now().getTime() - deps.config.idempotencyTtlSeconds * 1000);
      const existing = key ? await findNoteByIdempotencyKey(db, accountId, key, liveSince) : undefined;
      if (existing) return existing;
      if (ref) {
        const sale = { issuerId: request.issuer_id, model: emitter.family.model, externalRef: request.external_ref!, label: emitter.family.label };
        const refused = await duplicateExternalRef(deps, accountId, sale);
        if (refused) throw refused;
        if (refAgain) throw err;
        refAgain = true; // the note holding it was rejected meanwhile: sent once more
        continue;
      }
      if (released || (await releaseExpiredIdempotencyKeys(db, accountId, [{ key: key!, liveSince }])) === 0) throw err;
      released = true;
    }
  }
}

// Reads of the issuer after the remembered one, should it keep changing under the sale.
const ISSUER_READS = 3;

/**
 * The issuer as this process last stored a sale of it, else read now. A refusal computed from the
 * remembered issuer is checked again against the stored one (another process may have fixed it),
 * and a sale the database refused because the issuer changed meanwhile is built again.
 */
async function issueFromIssuer<R extends SaleRequest, P>(
  deps: IssueDeps,
  emitter: NoteEmitter<R, P>,
  accountId: string,
  request: R,
  opts: IssueOptions,
): Promise<Note> {
  for (let attempt = 0; ; attempt++) {
    const issuer = await emissionIssuer(deps.db, accountId, request.issuer_id, attempt > 0);
    try {
      const row = await issueFrom(deps, emitter, accountId, request, opts, issuer);
      if (issuer && !issuer.cached) keepEmissionIssuer(deps.db, issuer.row);
      return row;
    } catch (err) {
      const changed = isIssuerChanged(err);
      if (attempt < ISSUER_READS && ((issuer?.cached && err instanceof ApiError) || changed)) continue;
      // Nothing was stored; the same request (same Idempotency-Key) can simply be sent again.
      if (changed) throw new ApiError('invalid_state', `Issuer ${request.issuer_id} kept changing while this sale was being signed; send it again`);
      throw err;
    }
  }
}

async function issueFrom<R extends SaleRequest, P>(
  deps: IssueDeps,
  emitter: NoteEmitter<R, P>,
  accountId: string,
  request: R,
  opts: IssueOptions,
  found: EmissionIssuer | undefined,
): Promise<Note> {
  const { db, clock } = deps;
  const { family } = emitter;
  const issuer = found?.row;
  if (!issuer) {
    throw new ApiError('validation_error', `issuer_id ${request.issuer_id} is not an issuer of this account`, [
      { field: 'issuer_id', message: 'no issuer with this id' },
    ]);
  }
  // Every family's sale comes through here; an archived issuer issues nothing new.
  assertIssuerActive(issuer);
  const now = clock.now();
  const notReady = issuerReadinessProblems(issuer, now, { csc: emitter.needsCsc });
  if (notReady.length > 0) {
    throw new ApiError(
      'issuer_not_ready',
      `Issuer ${issuer.id} cannot emit yet: ${notReady.map((p) => p.field).join(', ')} missing or invalid`,
      notReady,
    );
  }
  // The sale is validated and computed once, before a number exists; each number's build below
  // (several when the batch is built again with other numbers) reuses it.
  const prepared = emitter.prepare(request, issuer);
  if (!prepared.ok) {
    const problems = prepared.errors;
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new ApiError('validation_error', `${first.field} ${first.message}${more}`, problems);
  }
  // A series the sale names must be one the issuer opened and did not retire.
  const named = request.series;
  const seriesRefused = named === undefined ? null : await seriesProblem(deps, issuer.id, family.model, named);
  if (seriesRefused) throw new ApiError('validation_error', `series ${seriesRefused}`, [{ field: 'series', message: seriesRefused }]);
  const material = await loadIssuerSigningMaterial(db, deps.secrets, accountId, issuer.id, issuer);
  if (!material?.certificate || (emitter.needsCsc && !material.csc)) {
    throw new ApiError('issuer_not_ready', `Issuer ${issuer.id} has no usable certificate${emitter.needsCsc ? ' or CSC' : ''}`, [
      { field: material?.certificate ? 'csc' : 'certificate', message: 'missing' },
    ]);
  }
  // A key stored before uploads were size-checked (a 16384-bit one held the event
  // loop for a quarter second per signature) signs nothing until the issuer uploads a proper A1.
  const keyProblem = signingKeyProblem(material.certificate.privateKey);
  if (keyProblem) {
    throw new ApiError('issuer_not_ready', `Issuer ${issuer.id} cannot sign with its stored certificate: ${keyProblem}`, [
      { field: 'certificate', message: `${keyProblem} Upload a new one (POST /v1/issuers/${issuer.id}/certificate).` },
    ]);
  }
  // An account with a hard cap past its plan's quota is refused here, before a number is
  // taken or the authority called (nothing else in billing ever stops a sale).
  await assertWithinQuota(deps, accountId, family.object);
  const id = newId(family.object);
  const series = { issuerId: issuer.id, model: family.model, serie: named ?? emitter.serieOf?.(issuer) ?? emitter.serie };
  const tpAmb = issuer.ambiente === 'producao' ? 1 : 2;

  // The caller as the breakers know it (certificate and account): in the sandbox each account's own.
  const caller = breakerCaller(material.certificate.fingerprintSha256, accountId);
  const straight = opts.contingency ?? (await emitter.contingencyAtOnce?.(deps, issuer, caller));
  const online = straight ? undefined : await emitter.onlineContingency?.(deps, issuer, caller);
  const contingency = straight
    ? { reason: straight.reason, entered_at: now.toISOString(), deadline_at: new Date(now.getTime() + straight.deadlineMs).toISOString(), transmitted_at: null, first_attempt: null }
    : null;
  const row = await commitEmission(db, {
    series,
    accountId,
    now,
    issuer: { issuerId: issuer.id, basis: issuer.basis },
    work: { authorizeJob: family.jobs.authorize, label: family.label },
    build: (nNF) => {
      const built = emitter.build(prepared.prepared, {
        serie: series.serie,
        nNF,
        emittedAt: now,
        signingKey: material.certificate!,
        csc: material.csc ?? null,
        csrt: material.csrt,
        ...(contingency ? { contingency: { at: now, reason: contingency.reason, ...(straight?.kind ? { kind: straight.kind } : {}) } } : online ? { contingency: online } : {}),
      });
      // Every document is checked against the official XSD before it leaves; a violation
      // the validation above missed is still the caller's field, named, and the number is not used.
      // The package in force on the document's dhEmi and environment judges it (schema-packages.ts).
      const schema = built.schemaFile
        ? { ...validateXml(built.xml, { pkg: built.schemaPackage, file: built.schemaFile }), pkg: built.schemaPackage }
        : validateNfeOfItsDate(built.xml);
      if (!schema.valid) {
        const details = schema.errors.slice(0, 20).map((e) => schemaProblem(emitter, e, request, issuer.id));
        throw new ApiError('validation_error', `The ${family.label} would not pass the official schema: ${details[0]!.field} ${details[0]!.message}`, details);
      }
      const note: NewNote = {
        id,
        account_id: accountId,
        issuer_id: issuer.id,
        external_ref: request.external_ref ?? null,
        external_ref_unique: request.external_ref !== undefined && request.allow_duplicate_external_ref !== true,
        status: contingency ? 'contingency' : 'processing',
        model: family.model,
        serie: series.serie,
        number: nNF,
        access_key: built.accessKey,
        tp_amb: tpAmb,
        tp_emis: built.tpEmis,
        dh_emi: built.dhEmi,
        schema_package: schema.pkg,
        request,
        totals: { ...built.totals } as Record<string, number>,
        items: built.items,
        signed_xml: built.xml,
        digest_value: built.digestValue,
        qrcode_url: built.qrCodeUrl ?? null,
        url_chave: built.urlChave ?? null,
        scenario: opts.scenario ?? null,
        idempotency_key: opts.idempotencyKey ?? null,
        contingency,
        created_at: now,
      };
      if (!contingency) return note;
      const shown = { ...note, protocolo: null, authorized_at: null, proc_xml: null, rejection: null, cancellation: null, cancel_proc_xml: null, attempts: 0, updated_at: now };
      return { ...note, event: { type: `${family.object}.contingency_issued`, subjectType: family.object, data: family.present(shown, deps.config.publicBaseUrl) } };
    },
  });
  deps.wakeWorker();
  return row;
}

/**
 * One XSD failure as a field problem. A failure in the issuer block is not the sale's: it says which
 * issuer field to correct and how, since every sale of that issuer would fail alike.
 */
function schemaProblem<R extends { issuer_id: string }, P>(
  emitter: NoteEmitter<R, P>,
  e: { path?: string; message: string },
  request: R,
  issuerId: string,
): { field: string; message: string } {
  const field = (e.path && emitter.fieldOfXsdPath(e.path, request)) || e.path || 'document';
  if (field !== 'issuer' && !field.startsWith('issuer.')) return { field, message: e.message };
  return { field, message: `${e.message}; this is the issuer's data: correct it with PATCH /v1/issuers/${issuerId}` };
}
