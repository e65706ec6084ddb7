import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';

/** Builds dist/ (server and dashboard) when missing or older than its sources; npm ci has built it already. */
export function ensureDashboardBuilt(): void {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
}
