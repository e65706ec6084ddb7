import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { secretBoxFor } from '../../../security/secret-box-registry.js';
import { updateDanfeSettings, type DanfeSettingsPatch } from '../../../services/issuers/danfe-settings.js';
import type { IssuerSecretHooks, IssuerServiceDeps } from '../../../services/issuers/issuer-deps.js';
import { presentIssuer } from '../../../services/issuers/issuer-view.js';
import { createIssuer, getIssuer, listIssuerPage, patchIssuer } from '../../../services/issuers/manage-issuers.js';
import { registerCsc } from '../../../services/issuers/register-csc.js';
import { PFX_MAX_BYTES, presentCertificate, uploadCertificate } from '../../../services/issuers/upload-certificate.js';
import { canonicalJson, sha256Hex } from '../../canonical-json.js';
import { ApiError, errorResponse, errorResponses } from '../../errors.js';
import { validatorCompiler } from '../../validation.js';
import { IdParams, ListQuery } from '../../schemas/common.js';
import {
  CertificateUploadBody,
  CertificateUploaded,
  CreateIssuerBody,
  CscBody,
  CscRegistered,
  DanfeSettingsBody,
  Issuer,
  IssuerList,
  PatchIssuerBody,
} from '../../schemas/issuer.js';

export interface IssuerRoutesOptions {
  /** Sandbox wiring: tell the SEFAZ simulator about stored certificates and CSCs. */
  hooks?: IssuerSecretHooks;
}

export const issuerRoutes: FastifyPluginAsync<IssuerRoutesOptions> = async (app, options) => {
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
  const idOf = (request: FastifyRequest) => (request.params as Static<typeof IdParams>).id;

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
          409: errorResponse(
            '`issuer_exists`: the account already has an issuer with this CNPJ in this `ambiente` (`details` names its id); ' +
              '`idempotency_in_progress`: a request with this Idempotency-Key is still running',
          ),
        },
      },
    },
    async (request, reply) => {
      const row = await createIssuer(deps(), request.auth.accountId, request.body as Static<typeof CreateIssuerBody>);
      return reply.code(201).send(presentIssuer(row, now()));
    },
  );

  app.get(
    '/v1/issuers',
    {
      config: read,
      schema: { tags, summary: 'List issuers', querystring: ListQuery, response: { 200: IssuerList, ...errorResponses(401, 403, 422, 429) } },
    },
    async (request) => {
      const q = request.query as Static<typeof ListQuery>;
      const p = await listIssuerPage(deps(), request.auth.accountId, q.limit ?? 20, q.starting_after);
      return { data: p.data.map((r) => presentIssuer(r, now())), has_more: p.has_more };
    },
  );

  app.get(
    '/v1/issuers/:id',
    {
      config: read,
      schema: { tags, summary: 'Get an issuer', params: IdParams, response: { 200: Issuer, ...errorResponses(401, 403, 404, 429) } },
    },
    async (request) => presentIssuer(await getIssuer(deps(), request.auth.accountId, idOf(request)), now()),
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
      presentIssuer(await patchIssuer(deps(), request.auth.accountId, idOf(request), request.body as Static<typeof PatchIssuerBody>), now()),
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
      presentIssuer(await updateDanfeSettings(deps(), request.auth.accountId, idOf(request), request.body as DanfeSettingsPatch), now()),
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
      const body = request.body as Static<typeof CscBody>;
      return reply.code(201).send(await registerCsc(deps(), request.auth.accountId, idOf(request), body.id_csc, body.csc));
    },
  );

  // Multipart only here: every other issuer route keeps answering 415 to anything but JSON.
  await app.register(async (upload) => {
    await upload.register(multipart, { limits: { fileSize: PFX_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5 } });
    upload.post(
      '/v1/issuers/:id/certificate',
      {
        // The Idempotency-Key is claimed once the parts are read: the same key with another file or
        // password is a conflict, whatever multipart boundary each request used.
        config: { ...write, idempotencyInHandler: true },
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
        let pfx: Buffer | undefined;
        let password: string | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file' && part.fieldname === 'pfx') pfx = await part.toBuffer();
            else if (part.type === 'file') await part.toBuffer(); // drain an unexpected file
            else if (part.fieldname === 'password') password = String(part.value);
          }
        } catch (err) {
          // Limits (FST_*) keep their own answers; a truncated or garbled body is the client's fault, not a 500.
          if ((err as { code?: string }).code?.startsWith('FST_') || err instanceof ApiError) throw err;
          throw new ApiError('invalid_request', 'The multipart body is malformed (unexpected end or bad boundary)');
        }
        const missing = [!pfx?.length && { field: 'pfx', message: 'is required (the .pfx file)' }, password === undefined && { field: 'password', message: 'is required' }].filter(
          (d): d is { field: string; message: string } => Boolean(d),
        );
        if (missing.length) throw new ApiError('validation_error', `${missing[0]!.field} ${missing[0]!.message}`, missing);
        // Digests only: the file and the password themselves never reach the idempotency table.
        const bodyHash = sha256Hex(canonicalJson({ pfx: sha256Hex(pfx!), password: sha256Hex(password!) }));
        if (!(await request.claimIdempotency(reply, bodyHash))) return reply;
        const result = await uploadCertificate(deps(), request.auth.accountId, idOf(request), pfx!, password!);
        return reply.code(201).send(presentCertificate(result.record, result.warnings, now()));
      },
    );
  });
};
