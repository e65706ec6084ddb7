// Shared by test/security-*.test.ts: the served OpenAPI operations, a log capture, a database dump,
// and "account A owns one of everything" for the cross-account and secrets checks.
import { insertInvoice } from '../../src/infra/storage/repositories/billing-repository.js';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { hashApiKey, generateApiKey, keyPrefix } from '../../src/infra/identity/api-key.js';
import { newId } from '../../src/kernel/ids.js';
import type { Db } from '../../src/infra/storage/db.js';
import { insertApplication } from '../../src/infra/storage/repositories/application-repository.js';
import { insertMembership } from '../../src/platform/people/storage/membership-repository.js';
import { insertNotification } from '../../src/platform/notifications/storage/notification-repository.js';
import { certFile, multipart } from '../issuers-harness.js';
import type { TestApp } from './app.js';
import { emitSettled, freshBranchCnpj, sale, SP_ISSUER } from './nfce-flow.js';
import { emitNfeSettled, invoice } from './nfe-flow.js';
import { issueNfseSettled, serviceInvoice } from './nfse-flow.js';
import { upsertReceived } from '../../src/documents/nfe/storage/nfe-received-repository.js';
import { addBounce } from '../../src/infra/storage/repositories/buyer-mail-repository.js';
import { eventually } from './webhook-receiver.js';

export const CERT = 'novo_cert_cnpj_06157250000116_senha_minhasenha.pfx';
export const CERT_PASSWORD = 'minhasenha';

export interface Operation {
  method: string;
  /** OpenAPI form: /v1/issuers/{id} */
  path: string;
  pathParams: string[];
  isPublic: boolean;
  /** Only a dashboard session may call it (its security lists no API key). */
  sessionOnly: boolean;
  /** The operation answers text/event-stream and never ends by itself. */
  isStream: boolean;
}

/** Every operation of the document the app serves at /docs/json. */
export async function servedOperations(app: FastifyInstance): Promise<Operation[]> {
  const res = await app.inject({ method: 'GET', url: '/docs/json' });
  if (res.statusCode !== 200) throw new Error(`/docs/json: ${res.statusCode}`);
  const doc = res.json() as {
    security?: unknown[];
    paths: Record<string, Record<string, { security?: unknown[]; parameters?: { in: string; name: string }[]; responses?: Record<string, { content?: Record<string, unknown> }> }>>;
  };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const security = op.security ?? doc.security ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        isPublic: security.length === 0,
        sessionOnly: security.length > 0 && !security.some((s) => typeof s === 'object' && s !== null && 'bearerAuth' in s),
        isStream: Object.keys(op.responses?.['200']?.content ?? {}).includes('text/event-stream'),
      });
    }
  }
  return ops;
}

export const opName = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return encodeURIComponent(v);
  });
}

/** A pino destination that keeps every line in memory. */
export function logCapture(): { stream: Writable; text(): string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { stream, text: () => lines.join('') };
}

/**
 * Every row of every table of the app's schema, as text (bytea as hex, jsonb as JSON), as
 * test/secrets-at-rest.test.ts does. On a shared server only this worker's schema: another worker's
 * may be dropped while it is read.
 */
export async function dumpDatabase(db: Db): Promise<string> {
  const tables = await db.query<{ table_schema: string; table_name: string }>(
    `SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema = current_schema()`,
  );
  const parts: string[] = [];
  for (const { table_schema, table_name } of tables.rows) {
    const rows = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${table_schema}"."${table_name}" t`);
    parts.push(...rows.rows.map((r) => r.row));
  }
  return parts.join('\n');
}

/** Fragments that would betray a secret in base64 or hex. */
export function fragments(secret: Buffer): string[] {
  const out: string[] = [];
  const b64 = secret.toString('base64');
  const hex = secret.toString('hex');
  for (let i = 64; i + 32 < b64.length; i += Math.floor(b64.length / 6)) out.push(b64.slice(i, i + 32));
  for (let i = 64; i + 48 < hex.length; i += Math.floor(hex.length / 6)) out.push(hex.slice(i, i + 48));
  return out;
}

/** A local HTTP server that accepts webhook deliveries (200) and keeps them. */
export async function webhookReceiver(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += String(d)));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A key of `accountId` with exactly these scopes (stored as POST /v1/applications would). */
export async function keyWithScopes(t: TestApp, accountId: string, scopes: string[]): Promise<{ authorization: string }> {
  const key = generateApiKey(t.config.env);
  await insertApplication(t.db, { id: newId('app'), accountId, name: `only ${scopes.join(',')}`, scopes, keyHash: hashApiKey(key), keyPrefix: keyPrefix(key) });
  return { authorization: `Bearer ${key}` };
}

function expectStatus(res: LightMyRequestResponse, wanted: number[], what: string): LightMyRequestResponse {
  if (!wanted.includes(res.statusCode)) throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 500)}`);
  return res;
}

export interface OwnedResources {
  accountId: string;
  auth: { authorization: string };
  issuerId: string;
  issuerCnpj: string;
  noteId: string;
  /** An authorized NF-e (model 55). */
  nfeId: string;
  /** An authorized NFS-e (national standard). */
  nfseId: string;
  /** An NF-e another company addressed to the issuer (filed as the download job files one). */
  receivedId: string;
  inutilizationId: string;
  exportId: string;
  accessKey: string;
  webhookId: string;
  webhookSecret: string;
  deliveryId: string;
  applicationId: string;
  applicationKey: string;
  notificationId: string;
  /** A pending invite of the team. */
  inviteId: string;
  /** A member of the team: a user who joined account A. */
  memberUserId: string;
  /** A billing invoice. */
  invoiceId: string;
  /** An address on the account's e-mail bounce list; written as the buyer-mail job does. */
  bouncedAddress: string;
  /** Every answer while creating them, for the secrets scan. */
  answers: { what: string; res: LightMyRequestResponse }[];
}

/**
 * Account A with one of everything that has an id in the API: an issuer (certificate + password,
 * CSC), an authorized note, a webhook with a delivery, an application (its key), a notification.
 * Notifications are only written by background jobs (certificate alerts, disabled webhooks), so
 * this one is written through the repository those jobs use.
 */
export async function ownedResources(t: TestApp, opts: { csc: string; webhookUrl: string }): Promise<OwnedResources> {
  const { accountId, auth } = await t.newAccount('Account A');
  const answers: OwnedResources['answers'] = [];
  const call = async (what: string, req: InjectOptions, ok: number[]) => {
    const res = expectStatus(await t.app.inject(req), ok, what);
    answers.push({ what, res });
    return res;
  };

  const issuerCnpj = freshBranchCnpj();
  const issuerId = (await call('create issuer', { method: 'POST', url: '/v1/issuers', headers: auth, payload: { ...SP_ISSUER, cnpj: issuerCnpj } }, [201])).json().id as string;
  const body = multipart({ password: CERT_PASSWORD }, { name: 'pfx', filename: 'cert.pfx', content: certFile(CERT) });
  await call('upload certificate', { method: 'POST', url: `/v1/issuers/${issuerId}/certificate`, headers: { ...auth, ...body.headers }, payload: body.payload }, [201]);
  await call('register CSC', { method: 'POST', url: `/v1/issuers/${issuerId}/csc`, headers: auth, payload: { id_csc: '000001', csc: opts.csc } }, [200, 201]);

  const hook = (await call('create webhook', { method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: opts.webhookUrl, event_types: ['*'] } }, [201])).json();
  const webhookId = hook.id as string;
  const webhookSecret = hook.secret as string;
  if (!/^whsec_/.test(webhookSecret ?? '')) throw new Error(`webhook secret not shown at creation: ${JSON.stringify(hook)}`);

  const emitted = await emitSettled(t, auth, sale(issuerId)); // 201, or 202 and polled on a loaded machine
  answers.push({ what: 'emit note', res: emitted.res });
  const note = emitted.note;
  if (note.status !== 'authorized') throw new Error(`note not authorized: ${JSON.stringify(note)}`);
  const nfe = await emitNfeSettled(t, auth, invoice(issuerId));
  answers.push({ what: 'emit NF-e', res: nfe.res });
  if (nfe.note.status !== 'authorized') throw new Error(`NF-e not authorized: ${JSON.stringify(nfe.note)}`);
  await call('NFS-e settings', { method: 'PATCH', url: `/v1/issuers/${issuerId}`, headers: auth, payload: { nfse: { municipal_registration: '12345678', simples_regime: 1 } } }, [200]);
  const nfse = await issueNfseSettled(t, auth, serviceInvoice(issuerId));
  answers.push({ what: 'issue NFS-e', res: nfse.res });
  if (nfse.note.status !== 'authorized') throw new Error(`NFS-e not authorized: ${JSON.stringify(nfse.note)}`);

  await call('test webhook', { method: 'POST', url: `/v1/webhooks/${webhookId}/test`, headers: auth }, [200, 201, 202]);
  const deliveryId = await eventually(async () => {
    const list = await call('list deliveries', { method: 'GET', url: `/v1/webhooks/${webhookId}/deliveries`, headers: auth }, [200]);
    return (list.json().data as { id: string }[])[0]?.id;
  }, 20_000, 'a webhook delivery');

  const appRes = (await call('create application', { method: 'POST', url: '/v1/applications', headers: auth, payload: { name: 'POS', scopes: ['nfce:write', 'issuers:read'] } }, [201])).json();
  const applicationId = appRes.id as string;
  const applicationKey = appRes.key as string;
  if (!/^sk_/.test(applicationKey ?? '')) throw new Error(`application key not shown at creation: ${JSON.stringify(appRes)}`);

  const notification = await insertNotification(t.db, {
    accountId,
    type: 'certificate.expiring',
    title: 'Certificate expiring',
    body: 'Account A test notification',
    data: { issuer_id: issuerId },
    sourceKey: `security-test:${randomBytes(8).toString('hex')}`,
    at: new Date(),
  });

  // Received notes are only written by the download job; this one is filed through the repository it uses.
  const receivedId = (await upsertReceived(t.db, {
    id: newId('nfer'), account_id: accountId, issuer_id: issuerId, access_key: '43261199999999000191550010000000011000000010', nsu: '000000000000001',
    issuer_cnpj: '99999999000191', issuer_name: 'Fornecedor Terceiro Ltda', issued_at: '2026-11-20T10:00:00-03:00', total: '150.00', situation: 'authorized',
  }, new Date())).id;

  const inutilizationId = (await call('void a range', {
    method: 'POST', url: `/v1/issuers/${issuerId}/inutilization`, headers: auth,
    payload: { serie: 1, numero_inicial: (note.number as number) + 500, numero_final: (note.number as number) + 501, justification: 'Falha no sistema pulou a numeracao' },
  }, [201])).json().id as string;

  // A month's XML export, built: its download is A's too.
  const month = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 7);
  const exportId = (await call('export the month', { method: 'POST', url: '/v1/exports', headers: auth, payload: { issuer_id: issuerId, month } }, [202])).json().id as string;
  await eventually(async () => (await t.app.inject({ method: 'GET', url: `/v1/exports/${exportId}`, headers: auth })).json().status === 'ready' || null, 30_000, 'the export built');

  const inviteId = (await call('invite a member', { method: 'POST', url: '/v1/team/invites', headers: auth, payload: { email: `invitee.${randomBytes(6).toString('hex')}@example.com`, role: 'viewer' } }, [201])).json().id as string;
  // A member without the invite round trip (test/people/team.test.ts walks it): a user of their own account, added to A.
  const member = await t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: `member.${randomBytes(6).toString('hex')}@example.com`, password: 'correct horse battery staple' } });
  const memberUserId = (member.json() as { session: { user_id: string } }).session.user_id;
  await insertMembership(t.db, { accountId, userId: memberUserId, role: 'developer', at: new Date() });

  // Invoices are only made by the monthly job, and never for a sandbox account: this one is filed
  // through the repository the job uses.
  const invoiceId = newId('inv');
  await insertInvoice(t.db, {
    id: invoiceId, account_id: accountId, period: '2026-10', plan: 'starter', status: 'open', total_cents: 4_900, created_at: new Date(), due_at: new Date(), payment_url: null,
    lines: [{ kind: 'plan', description: 'Starter plan, 2026-10', quantity: 1, unit_cents: 4_900, amount_cents: 4_900 }],
  });

  const bouncedAddress = `sem-caixa-${randomBytes(4).toString('hex')}@example.com`;
  await addBounce(t.db, { accountId, address: bouncedAddress, smtpCode: 550, response: '5.1.1 mailbox unavailable', noteId: nfe.note.id as string, at: new Date() });
  return {
    accountId,
    auth,
    invoiceId,
    inviteId,
    memberUserId,
    issuerId,
    issuerCnpj,
    noteId: note.id as string,
    nfeId: nfe.note.id as string,
    nfseId: nfse.note.id as string,
    receivedId,
    inutilizationId,
    exportId,
    accessKey: note.access_key as string,
    webhookId,
    webhookSecret,
    deliveryId,
    applicationId,
    applicationKey,
    notificationId: notification!.id,
    bouncedAddress,
    answers,
  };
}
