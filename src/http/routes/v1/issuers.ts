import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { secretBoxFor } from '../../../infra/security/secret-box-registry.js';
import { updateDanfeSettings } from '../../../platform/issuers/danfe-settings.js';
import type { IssuerSecretHooks, IssuerServiceDeps } from '../../../platform/issuers/issuer-deps.js';
import { presentIssuer } from '../../../platform/issuers/issuer-view.js';
import { archiveIssuer, unarchiveIssuer } from '../../../platform/issuers/archive-issuer.js';
import { createIssuer, getIssuer, listIssuerPage, patchIssuer } from '../../../platform/issuers/manage-issuers.js';
import { registerCsc } from '../../../platform/issuers/register-csc.js';
import { getTechnicalResponsible, removeTechnicalResponsible, setTechnicalResponsible } from '../../../platform/issuers/technical-responsible.js';
import { TechnicalResponsible, TechnicalResponsibleBody, TechnicalResponsibleOrNone } from '../../schemas/technical-responsible.js';
import { CERTIFICATE_UPLOAD_LIMITS, receiveCertificateUpload } from '../../../platform/issuers/certificate-upload-request.js';
import { presentCertificate } from '../../../platform/issuers/upload-certificate.js';
import { errorResponse, errorResponses } from '../../../kernel/errors.js';
import { validatorCompiler } from '../../validation.js';
import { IdParams } from '../../schemas/common.js';
import {
  CertificateUploadBody,
  CertificateUploaded,
  CreateIssuerBody,
  CscBody,
  CscRegistered,
  DanfeSettingsBody,
  Issuer,
  IssuerList,
  IssuerListQuery,
  PatchIssuerBody,
} from '../../schemas/issuer.js';

export interface IssuerRoutesOptions {
  /** Sandbox wiring: tell the SEFAZ simulator about stored certificates and CSCs. */
  hooks?: IssuerSecretHooks;
}

export const issuerRoutes: FastifyPluginAsyncTypebox<IssuerRoutesOptions> = async (app, options) => {
  const tags = ['issuers'];
  const read = { scope: 'issuers:read' };
  const write = { scope: 'issuers:write' };
  const deps = (): IssuerServiceDeps => ({
    db: app.ctx.db,
    clock: app.ctx.clock,
    env: app.ctx.config.env,
    secrets: secretBoxFor(app.ctx.config),
    hooks: options.hooks,
  });
  const now = () => app.ctx.clock.now();

  app.post(
    '/v1/issuers',
    {
      config: write,
      schema: {
        tags,
        summary: 'Register an issuer (the taxpayer that emits)',
        description: 'The CNPJ check digits are verified (alphanumeric CNPJ included); the municipality must belong to `uf`.',
        body: CreateIssuerBody,
        response: {
          201: Issuer,
          ...errorResponses(400, 401, 403, 415, 422, 429),
          402: errorResponse('`plan_limit_reached`: the plan\'s limit on issuers is reached (production accounts; the sandbox has none); upgrade to add more'),
          409: errorResponse(
            '`issuer_exists`: the account already has an issuer with this CNPJ in this `ambiente` (`details` names its id); ' +
              '`idempotency_in_progress`: a request with this Idempotency-Key is still running',
          ),
        },
      },
    },
    async (request, reply) => {
      const row = await createIssuer(deps(), request.auth.accountId, request.body);
      return reply.code(201).send(presentIssuer(row, now()));
    },
  );

  app.get(
    '/v1/issuers',
    {
      config: read,
      schema: { tags, summary: 'List issuers', description: 'Archived issuers are listed too (`archived_at`); `archived=true|false` keeps only one kind.', querystring: IssuerListQuery, response: { 200: IssuerList, ...errorResponses(401, 403, 422, 429) } },
    },
    async (request) => {
      const q = request.query;
      const archived = q.archived === undefined ? undefined : q.archived === 'true';
      const p = await listIssuerPage(deps(), request.auth.accountId, q.limit ?? 20, q.starting_after, archived);
      return { data: p.data.map((r) => presentIssuer(r, now())), has_more: p.has_more };
    },
  );

  app.get(
    '/v1/issuers/:id',
    {
      config: read,
      schema: { tags, summary: 'Get an issuer', params: IdParams, response: { 200: Issuer, ...errorResponses(401, 403, 404, 429) } },
    },
    async (request) => presentIssuer(await getIssuer(deps(), request.auth.accountId, request.params.id), now()),
  );

  app.patch(
    '/v1/issuers/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Update an issuer',
        description: 'Only the fields sent change. `cnpj`, `uf` and `ambiente` cannot change: register another issuer.',
        params: IdParams,
        body: PatchIssuerBody,
        response: { 200: Issuer, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request) =>
      presentIssuer(await patchIssuer(deps(), request.auth.accountId, request.params.id, request.body), now()),
  );

  // An issuer is never deleted (its documents are kept 5 years); archived, it is
  // read-only and the plan does not count it, so an account can move to a smaller plan.
  app.post(
    '/v1/issuers/:id/archive',
    {
      config: write,
      schema: {
        tags,
        summary: 'Archive an issuer (read-only, not counted by the plan)',
        description:
          'Idempotent. An archived issuer issues no NFC-e, NF-e or NFS-e, no inutilization, and takes no certificate, CSC or settings change ' +
          '(409 `issuer_archived`); every document it issued stays readable (JSON, XML, DANFE, events), and cancellation within its window, ' +
          "CC-e and manifestation keep working. It does not count against the plan's issuer limit.",
        params: IdParams,
        response: { 200: Issuer, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => presentIssuer(await archiveIssuer(deps(), request.auth.accountId, request.params.id), now()),
  );

  app.post(
    '/v1/issuers/:id/unarchive',
    {
      config: write,
      schema: {
        tags,
        summary: 'Unarchive an issuer (it counts against the plan again)',
        description: 'Idempotent.',
        params: IdParams,
        response: {
          200: Issuer,
          ...errorResponses(401, 403, 404, 429),
          409: errorResponse("`plan_limits_exceeded`: the plan's issuer limit is reached; upgrade or archive another issuer first"),
        },
      },
    },
    async (request) => presentIssuer(await unarchiveIssuer(deps(), request.auth.accountId, request.params.id), now()),
  );

  app.patch(
    '/v1/issuers/:id/danfe-settings',
    {
      config: write,
      schema: {
        tags,
        summary: 'Set the DANFE template (logo, color, footer)',
        params: IdParams,
        body: DanfeSettingsBody,
        response: { 200: Issuer, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request) =>
      presentIssuer(await updateDanfeSettings(deps(), request.auth.accountId, request.params.id, request.body), now()),
  );

  app.post(
    '/v1/issuers/:id/csc',
    {
      config: write,
      schema: {
        tags,
        summary: 'Register the CSC (taxpayer security code for the QR code)',
        description: 'Stored encrypted (envelope mode); only the id is shown again. A new registration replaces the previous CSC.',
        params: IdParams,
        body: CscBody,
        response: { 201: CscRegistered, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const { id_csc, csc } = request.body;
      return reply.code(201).send(await registerCsc(deps(), request.auth.accountId, request.params.id, id_csc, csc));
    },
  );

  // infRespTec (MOC ZD01-10): an issuer whose system comes from another software house than the account's.
  app.get(
    '/v1/issuers/:id/technical-responsible',
    {
      config: read,
      schema: {
        tags,
        summary: 'The technical responsible (infRespTec) the issuer\'s notes carry: its own, else the account\'s (`scope` says which)',
        params: IdParams,
        response: { 200: TechnicalResponsibleOrNone, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => getTechnicalResponsible(app.ctx, request.auth.accountId, request.params.id),
  );

  app.put(
    '/v1/issuers/:id/technical-responsible',
    {
      config: write,
      schema: {
        tags,
        summary: 'Give the issuer its own technical responsible (infRespTec), instead of the account\'s',
        description: 'Same fields as PUT /v1/account/technical-responsible; the CSRT secret is stored encrypted and never returned.',
        params: IdParams,
        body: TechnicalResponsibleBody,
        response: { 200: TechnicalResponsible, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request) => setTechnicalResponsible(deps(), request.auth.accountId, request.params.id, request.body),
  );

  app.delete(
    '/v1/issuers/:id/technical-responsible',
    {
      config: write,
      schema: {
        tags,
        summary: 'Remove the issuer\'s own technical responsible (its notes then carry the account\'s)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await removeTechnicalResponsible(app.ctx, request.auth.accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // Multipart only here: every other issuer route keeps answering 415 to anything but JSON.
  await app.register((async (upload) => {
    await upload.register(multipart, { limits: CERTIFICATE_UPLOAD_LIMITS });
    upload.post(
      '/v1/issuers/:id/certificate',
      {
        // The Idempotency-Key is claimed once the parts are read: the same key with another file or
        // password is a conflict, whatever multipart boundary each request used.
        // A certificate signs in the issuer's name: a session needs a recent proof.
        config: { ...write, idempotencyInHandler: true, stepUp: true },
        // The body is a stream read by the handler; the schema below documents it for OpenAPI.
        validatorCompiler: (req) => (req.httpPart === 'body' ? () => ({ value: undefined }) : validatorCompiler(req)),
        schema: {
          tags,
          summary: 'Upload the A1 certificate (.pfx and its password)',
          description:
            'Refused with `certificate_invalid` for a wrong password, a file that is not PKCS#12, an expired or not yet valid ' +
            "certificate, or a CNPJ root that differs from the issuer's. A failed upload keeps the previous certificate. " +
            'Also refused: more than 100,000 key-derivation iterations (MAC, PBE/PBKDF2), a file that takes over 10 s to open, ' +
            'and keys other than RSA 2048 to 4096 bits. `service_unavailable` (503, Retry-After) when too many files are being opened at once.',
          consumes: ['multipart/form-data'],
          params: IdParams,
          body: CertificateUploadBody,
          response: { 201: CertificateUploaded, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503) },
        },
      },
      async (request, reply) => {
        const result = await receiveCertificateUpload(deps(), request.auth.accountId, request.params.id, {
          parts: request.parts(),
          claimIdempotency: (bodyHash) => request.claimIdempotency(reply, bodyHash),
        });
        if (!result) return reply; // the Idempotency-Key's first answer was replayed
        return reply.code(201).send(presentCertificate(result.record, result.warnings, now()));
      },
    );
  }) satisfies FastifyPluginAsyncTypebox);
};
