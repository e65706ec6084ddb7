// Shared by test/issuers-*.test.ts, secrets-*, meta-*, account-*: an app with the issuer, meta,
// account and HSM routes (registered here until app.ts registers them itself).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { hashApiKey, generateApiKey, keyPrefix } from '../src/auth/api-key.js';
import { prepareDatabase } from '../src/bootstrap.js';
import { createAccount } from '../src/cli/create-account.js';
import { systemClock, type Clock } from '../src/clock.js';
import { loadConfig, type Config } from '../src/config.js';
import { accountRoutes } from '../src/http/routes/v1/account.js';
import { hsmRoutes } from '../src/http/routes/v1/hsm.js';
import { issuerRoutes } from '../src/http/routes/v1/issuers.js';
import { metaRoutes } from '../src/http/routes/v1/meta.js';
import { newId } from '../src/ids.js';
import { PROJECT_ROOT } from '../src/paths.js';
import type { Db } from '../src/storage/db.js';
import { runMigrations } from '../src/storage/migrate.js';
import { gatewayMigrations } from '../src/storage/migrations/index.js';
import { migration as issuersMigration } from '../src/storage/migrations/0002_issuers.js';
import { insertApplication } from '../src/storage/repositories/application-repository.js';
import { getTestDb } from './support/db.js';

export const TEST_MASTER_KEY = randomBytes(32).toString('base64');

export interface IssuerTestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  newAccount(): Promise<{ accountId: string; auth: { authorization: string } }>;
  /** A key of `accountId` with only these scopes. */
  keyWithScopes(accountId: string, scopes: string[]): Promise<{ authorization: string }>;
}

export async function issuerTestApp(opts: { env?: Record<string, string>; clock?: Clock } = {}): Promise<IssuerTestApp> {
  const db = await getTestDb();
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: '100000', DATA_DIR: '/tmp/fiscal-gateway-test', MASTER_KEY: TEST_MASTER_KEY, ...opts.env });
  await prepareDatabase(db, { env: 'sandbox' });
  if (!gatewayMigrations.migrations.some((m) => m.id === issuersMigration.id)) {
    await runMigrations(db, { table: gatewayMigrations.table, migrations: [...gatewayMigrations.migrations, issuersMigration] });
  }
  const app = await buildApp({ config, db, clock: opts.clock ?? systemClock });
  const missing = (url: string) => !app.hasRoute({ method: 'GET', url });
  if (missing('/v1/issuers')) await app.register(issuerRoutes);
  if (missing('/v1/ufs')) await app.register(metaRoutes);
  if (missing('/v1/account')) await app.register(accountRoutes);
  if (missing('/v1/hsm/status')) await app.register(hsmRoutes);
  await app.ready();
  return {
    app,
    db,
    config,
    async newAccount() {
      const { accountId, key } = await createAccount(db, config, 'Issuer tests');
      return { accountId, auth: { authorization: `Bearer ${key}` } };
    },
    async keyWithScopes(accountId, scopes) {
      const key = generateApiKey(config.env);
      await insertApplication(db, { id: newId('app'), accountId, name: 'limited', scopes, keyHash: hashApiKey(key), keyPrefix: keyPrefix(key) });
      return { authorization: `Bearer ${key}` };
    },
  };
}

export const certFile = (name: string) => readFileSync(join(PROJECT_ROOT, 'test/fixtures/certs', name));

/** A multipart/form-data body as a browser or curl would send it. */
export function multipart(fields: Record<string, string>, file?: { name: string; filename: string; content: Buffer }) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: application/x-pkcs12\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const VALID_ISSUER = {
  cnpj: '06157250000116',
  razao_social: 'Padaria Exemplo Ltda',
  ie: '110042490114',
  uf: 'SP',
  ambiente: 'homologacao',
  regime_tributario: 'simples',
  nome_fantasia: 'Padaria Exemplo',
  endereco: {
    logradouro: 'Avenida Paulista',
    numero: '1000',
    bairro: 'Bela Vista',
    codigo_municipio: '3550308',
    cep: '01310-100',
    telefone: '(11) 3333-4444',
  },
};

export async function createIssuer(t: IssuerTestApp, auth: { authorization: string }, body: object = VALID_ISSUER): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: body });
  if (res.statusCode !== 201) throw new Error(`createIssuer: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

export async function uploadCert(
  t: IssuerTestApp,
  auth: { authorization: string },
  issuerId: string,
  file: string | Buffer,
  password: string,
) {
  const content = typeof file === 'string' ? certFile(file) : file;
  const body = multipart({ password }, { name: 'pfx', filename: 'cert.pfx', content });
  return t.app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/certificate`, headers: { ...auth, ...body.headers }, payload: body.payload });
}
