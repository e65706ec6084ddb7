import { dropTestSchemas } from './global-setup-schemas.js';
import { ensureDashboardBuilt } from './dashboard-build.js';
import { createSoftHsmTokens, removeSoftHsmTokens } from './softhsm.js';

// The integration, browser and proofs projects (vitest.config.ts) name this setup, and vitest loads it once
// per project in the same process: the first to start does the work, the last to end undoes it, so a run
// that holds both has one token folder (workers inherit one SOFTHSM2_CONF) and one build.
const shared = globalThis as typeof globalThis & { fgGlobalSetup?: { users: number; softHsmDir?: string } };

export async function setup(): Promise<void> {
  const state = (shared.fgGlobalSetup ??= { users: 0 });
  if (state.users++ > 0) return;
  await dropTestSchemas();
  // The PKCS#11 tests' tokens (test/support/softhsm.ts): one SoftHSM2 config per run, before the
  // workers start, since SoftHSM reads SOFTHSM2_CONF once per process.
  state.softHsmDir = createSoftHsmTokens();
  // The dashboard's browser tests serve dist/dashboard: built here, once, before the workers start
  // (two workers rebuilding it side by side would empty each other's output).
  ensureDashboardBuilt();
}

export async function teardown(): Promise<void> {
  const state = shared.fgGlobalSetup;
  if (!state || --state.users > 0) return;
  // KEEP_TEST_SCHEMAS=1 leaves them for a post-mortem look.
  if (process.env.KEEP_TEST_SCHEMAS !== '1') await dropTestSchemas();
  if (state.softHsmDir) removeSoftHsmTokens(state.softHsmDir);
  delete shared.fgGlobalSetup;
}
