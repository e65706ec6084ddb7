import type { TestSimulatorHandle } from './app.js';
import type { TestDbHandle } from './db.js';

/**
 * What the worker's next test file starts from (test/support/setup-each-file.ts runs it before each
 * file): files of a worker share its database and its simulator (one PGlite or schema per worker: a
 * schema per file costs 1-2 s of migrations), so once a file of the worker has opened them, the next
 * one gets an empty database with the sandbox's seed and a simulator with no outage and no queued
 * scenario: a file cannot pass or fail because of what another left. Both are found on globalThis,
 * so that a unit test file that needs neither imports neither. Resolves true when there was
 * something to reset.
 */
export async function resetWorkerForNextFile(): Promise<boolean> {
  const worker = globalThis as TestDbHandle & TestSimulatorHandle;
  if (!worker.fgTestDbEmpty) return false;
  await worker.fgTestDbEmpty();
  const sim = await worker.fgTestSimulator;
  sim?.endOutage();
  sim?.setScenario(null);
  return true;
}
