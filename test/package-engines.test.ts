// package.json promises Node >= 20.19 (engines); `npm ci` warns EBADENGINE for any locked package
// whose own engines refuse the running Node. Checked on the lock file, so without installing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/kernel/paths.js';

const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const withEngines = Object.entries(lock.packages).flatMap(([path, e]) =>
  path && e.engines && !Array.isArray(e.engines) && e.engines.node ? [{ name: `${path.replace(/^.*node_modules\//, '')}@${e.version}`, range: e.engines.node, e }] : [],
);

describe('locked packages and the Node version the project promises', () => {
  it('every runtime package accepts the oldest Node that package.json engines allow', () => {
    const floor = semver.minVersion(pkg.engines.node)!.version;
    const refusing = withEngines.filter(({ e, range }) => !e.dev && !semver.satisfies(floor, range)).map(({ name, range }) => `${name} wants ${range}`);
    expect(refusing, `Node ${floor}`).toEqual([]);
  });

  // The one known warning: libxmljs2 0.37 (a dev dependency of nfewizard-io, the independent client
  // test/authority-nfewizard.test.ts drives) declares Node >= 22 but builds and runs on Node 20, as that
  // test shows on every run. The README says so. Any other package refusing the Node fails here.
  const KNOWN_DEV_WARNINGS = new Set(['libxmljs2@0.37.0']);

  it('no locked package refuses the Node running the tests (npm ci would warn EBADENGINE), but the one dev package named above', () => {
    const refusing = withEngines
      .filter(({ e, name }) => !(e.dev && KNOWN_DEV_WARNINGS.has(name)))
      .filter(({ e, range }) => !e.optional && !semver.satisfies(process.version, range))
      .map(({ name, range }) => `${name} wants ${range}`);
    expect(refusing, process.version).toEqual([]);
  });
});
