import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { openDb, type Db } from '../infra/storage/db.js';
import { startAuthoritySimulator, type AuthoritySimulator } from './authority-simulator.js';
import { loadOrCreateIdentity } from './server-certificate.js';

export interface StandaloneSimulator {
  sim: AuthoritySimulator;
  /** The CA PEM written for gateways (SIM_CA_FILE). */
  caFile: string;
  clientAuth: 'registered' | 'any-certificate';
  /** The admin API's bearer token (SIM_ADMIN_TOKEN, or the one generated for this run); undefined: no admin API. */
  adminToken: string | undefined;
  /** True when SIM_ADMIN_TOKEN was unset and the token was generated for this run (sandbox only). */
  adminTokenGenerated: boolean;
  close(): Promise<void>;
}

/**
 * The simulator as its own process, a state authority that outlives the gateways talking to it.
 * Environment:
 *   SIM_DATA_DIR (default ./data/authority-sim): server key, ca.pem, and PGlite state unless
 *   SIM_DATABASE_URL / DATABASE_URL (sim_ tables; SIM_DATABASE_SCHEMA picks a schema of their own);
 *   SIM_CLIENT_AUTH 'registered' (default: only certificates registered through the admin API pass
 *   the handshake) or 'any-certificate'; SIM_ADMIN_TOKEN (16+ characters) enables the admin API;
 *   with 'registered' and no SIM_ADMIN_TOKEN a random token is generated for the run (printed by
 *   the CLI), except in production (GATEWAY_ENV or NODE_ENV production), where it is required; AUTHORITY_SIM_HOST, AUTHORITY_SIM_PORT (or SIM_PORT),
 *   AUTHORITY_SIM_LATENCY_MS (or SIM_LATENCY_MS; "min-max", default 1000-3000).
 * `db` is for tests that share one database handle.
 */
export async function startStandaloneSimulator(env: NodeJS.ProcessEnv = process.env, db?: Db): Promise<StandaloneSimulator> {
  const clientAuth = (env.SIM_CLIENT_AUTH?.trim() || 'registered') as StandaloneSimulator['clientAuth'];
  if (clientAuth !== 'registered' && clientAuth !== 'any-certificate') throw new Error('SIM_CLIENT_AUTH must be registered or any-certificate');
  let adminToken = env.SIM_ADMIN_TOKEN?.trim() || undefined;
  if (adminToken !== undefined && adminToken.length < 16) throw new Error('SIM_ADMIN_TOKEN must have at least 16 characters');
  let adminTokenGenerated = false;
  if (clientAuth === 'registered' && !adminToken) {
    const production = env.GATEWAY_ENV?.trim() === 'production' || env.NODE_ENV?.trim() === 'production';
    if (production) {
      throw new Error(
        'SIM_ADMIN_TOKEN (16+ characters) is required in production: with SIM_CLIENT_AUTH=registered (the default) gateways register ' +
          'certificates and CSCs through the admin API; SIM_CLIENT_AUTH=any-certificate runs without it',
      );
    }
    // Sandbox default: a token for this run only, printed at start-up for the gateways to use.
    adminToken = `simadm_${randomBytes(24).toString('base64url')}`;
    adminTokenGenerated = true;
  }
  const latencyText = env.AUTHORITY_SIM_LATENCY_MS ?? env.SIM_LATENCY_MS ?? '1000-3000';
  const [lo, hi] = latencyText.split('-').map((x) => Number(x.trim()));
  if (!Number.isInteger(lo) || (hi !== undefined && (!Number.isInteger(hi) || hi < lo!))) throw new Error(`latency "${latencyText}" must be "min-max" milliseconds`);
  const dir = resolve(env.SIM_DATA_DIR?.trim() || './data/authority-sim');
  const { identity, caFile } = loadOrCreateIdentity(dir);
  const databaseUrl = env.SIM_DATABASE_URL?.trim() || env.DATABASE_URL?.trim() || undefined;
  const schema = env.SIM_DATABASE_SCHEMA?.trim() || undefined;
  const ownDb = db ? undefined : await openDb({ databaseUrl, dataDir: databaseUrl ? undefined : join(dir, 'pglite'), ...(schema ? { schema } : {}) });
  const sim = await startAuthoritySimulator({
    db: db ?? ownDb!,
    identity,
    port: Number(env.AUTHORITY_SIM_PORT ?? env.SIM_PORT ?? 0),
    host: env.AUTHORITY_SIM_HOST ?? '127.0.0.1',
    latencyMs: [lo!, hi ?? lo!],
    clientAuth,
    // Its own database, the state's: CSCs and certificates survive a restart of the simulator.
    cscStorage: 'database',
    persistClientCertificates: true,
    ...(adminToken ? { adminToken } : {}),
  });
  return {
    sim,
    caFile,
    clientAuth,
    adminToken,
    adminTokenGenerated,
    async close() {
      await sim.close();
      await ownDb?.close();
    },
  };
}

/**
 * `npm run authority-sim`: prints where to reach it and what to trust, runs until SIGINT/SIGTERM.
 * `onReady` runs once it listens (the entry point installs its process guards there).
 */
export async function runAuthoritySimCli(env: NodeJS.ProcessEnv = process.env, opts: { onReady?: () => void } = {}): Promise<void> {
  const s = await startStandaloneSimulator(env);
  opts.onReady?.();
  const tokenVar = s.adminToken ? ` SIM_ADMIN_TOKEN=${s.adminToken}` : '';
  process.stdout.write(
    [
      `authority simulator listening on ${s.sim.url}`,
      `  service URLs: ${s.sim.url}/<WSDL service name, e.g. NFeAutorizacao4> (SOAP 1.2 or 1.1; SEFAZ-style paths such as /ws/NfeAutorizacao/NFeAutorizacao4.asmx too)`,
      `  CA file:      ${s.caFile}`,
      `  client auth:  ${s.clientAuth}${s.clientAuth === 'registered' ? ' (register certificates and CSCs at /sim/admin/, bearer SIM_ADMIN_TOKEN)' : ''}`,
      ...(s.adminToken
        ? [`  admin token:  ${s.adminToken}${s.adminTokenGenerated ? '   (generated for this run: SIM_ADMIN_TOKEN was unset; set it to keep one token across restarts)' : ''}`]
        : []),
      `  gateways:     SIM_URL=${s.sim.url} SIM_CA_FILE=${s.caFile}${tokenVar} npm start`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
  });
  await s.close();
}
