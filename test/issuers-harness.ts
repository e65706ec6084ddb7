// Shared by test/issuers-*.test.ts, secrets-*, meta-*, account-*: an app with the issuer, meta,
// account and HSM routes (registered here until app.ts registers them itself).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { hashApiKey, generateApiKey, keyPrefix } from '../src/infra/identity/api-key.js';
import type { Clock } from '../src/kernel/clock.js';
import type { Config } from '../src/config.js';
import { createTestApp, TEST_MASTER_KEY } from './support/app.js';
import { newId } from '../src/kernel/ids.js';
import { PROJECT_ROOT } from '../src/kernel/paths.js';
import type { Db } from '../src/infra/storage/db.js';
import { insertApplication } from '../src/infra/storage/repositories/application-repository.js';

export { TEST_MASTER_KEY };

export interface IssuerTestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  newAccount(): Promise<{ accountId: string; auth: { authorization: string } }>;
  /** A key of `accountId` with only these scopes. */
  keyWithScopes(accountId: string, scopes: string[]): Promise<{ authorization: string }>;
}

export async function issuerTestApp(opts: { env?: Record<string, string>; clock?: Clock } = {}): Promise<IssuerTestApp> {
  const t = await createTestApp(opts);
  return {
    app: t.app,
    db: t.db,
    config: t.config,
    async newAccount() {
      const { accountId, auth } = await t.newAccount('Issuer tests');
      return { accountId, auth };
    },
    async keyWithScopes(accountId, scopes) {
      const key = generateApiKey(t.config.env);
      await insertApplication(t.db, { id: newId('app'), accountId, name: 'limited', scopes, keyHash: hashApiKey(key), keyPrefix: keyPrefix(key) });
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
