import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerJobs } from '../src/worker/handlers/index.js';
import type { Ports } from '../src/platform/ports/ports.js';
import { PROJECT_ROOT } from '../src/kernel/paths.js';

// ARCHITECTURE.md "Job types" lists every job the worker runs: held against the handler registry itself.
// Building the registry touches no port (each handler reads its ports when a job runs), so an empty
// stand-in is enough to read its keys.

const section = (text: string, heading: string): string => {
  const start = text.indexOf(`## ${heading}\n`);
  const end = text.indexOf('\n## ', start + 1);
  return start < 0 ? '' : text.slice(start, end < 0 ? undefined : end);
};

describe('the job types in ARCHITECTURE.md', () => {
  const registered = Object.keys(workerJobs({ config: {}, clock: { now: () => new Date() } } as unknown as Ports).handlers).sort();
  const table = section(readFileSync(join(PROJECT_ROOT, 'ARCHITECTURE.md'), 'utf8'), 'Job types');
  const listed = [...table.matchAll(/^\| `([a-z0-9._-]+)` \|/gm)].map((m) => m[1]!).sort();

  it('names every job type the worker runs, and none it does not', () => {
    expect(registered.length).toBeGreaterThan(15);
    expect(listed).toEqual(registered);
  });
});
