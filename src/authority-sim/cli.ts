import { openDb } from '../storage/db.js';
import { startAuthoritySimulator } from './authority-simulator.js';

/**
 * `npm run authority-sim`: the simulator alone, for other clients. Storage: DATABASE_URL or an
 * in-memory PGlite. Any client certificate is accepted here (nobody registers one), but one is
 * still required: a client without a certificate is dropped.
 */
export async function runAuthoritySimCli(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const db = await openDb({ databaseUrl: env.DATABASE_URL });
  const latency = (env.AUTHORITY_SIM_LATENCY_MS ?? '1000-3000').split('-').map(Number) as [number, number];
  const sim = await startAuthoritySimulator({
    db,
    port: Number(env.AUTHORITY_SIM_PORT ?? 0),
    host: env.AUTHORITY_SIM_HOST ?? '127.0.0.1',
    latencyMs: [latency[0] ?? 0, latency[1] ?? latency[0] ?? 0],
    clientAuth: 'any-certificate',
  });
  process.stdout.write(`authority simulator listening on ${sim.url}\nservice URLs: ${sim.url}/<WSDL service name, e.g. NFeAutorizacao4>\ntrust this CA:\n${sim.caPem}`);
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  await sim.close();
  await db.close();
}
