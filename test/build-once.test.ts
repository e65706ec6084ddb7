// `npm ci && npm start` must compile the TypeScript once: npm ci's `prepare` builds, and `prestart`
// builds again only when a source changed since. Run on a scratch project that has this project's
// package.json scripts (and scripts/ folder) and a stand-in `tsc` that counts its runs.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/kernel/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'fg-build-once-'));
const calls = join(dir, 'tsc-calls.log');

// Writes dist/main.js from src/main.ts, as tsc would, and logs each run.
const FAKE_TSC = `#!/usr/bin/env node
const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(calls)}, process.argv.slice(2).join(' ') + '\\n');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/main.js', fs.readFileSync('src/main.ts'));
`;

beforeAll(() => {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'build-once-check', version: '1.0.0', private: true, type: 'module', scripts: pkg.scripts }, null, 2));
  if (existsSync(join(PROJECT_ROOT, 'scripts'))) cpSync(join(PROJECT_ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
  for (const f of ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) writeFileSync(join(dir, f), '{}\n');
  mkdirSync(join(dir, 'src', 'http'), { recursive: true });
  writeFileSync(join(dir, 'src', 'main.ts'), 'console.log("v1");\n');
  writeFileSync(join(dir, 'src', 'http', 'app.ts'), 'export {};\n');
  const ts = join(dir, 'node_modules', 'typescript');
  mkdirSync(join(ts, 'bin'), { recursive: true });
  writeFileSync(join(ts, 'package.json'), JSON.stringify({ name: 'typescript', version: '0.0.0', bin: { tsc: 'bin/tsc' } }));
  writeFileSync(join(ts, 'bin', 'tsc'), FAKE_TSC);
  chmodSync(join(ts, 'bin', 'tsc'), 0o755);
  mkdirSync(join(dir, 'node_modules', '.bin'));
  symlinkSync('../typescript/bin/tsc', join(dir, 'node_modules', '.bin', 'tsc'));
  // An old file time, so that the first build's outputs are clearly newer than the sources.
  const old = new Date(Date.now() - 3600_000);
  for (const f of ['src/main.ts', 'src/http/app.ts', 'src/http', 'src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) utimesSync(join(dir, f), old, old);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tscRuns = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0);
function npmRun(script: string): string {
  const r = spawnSync('npm', ['run', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  expect(r.status, `npm run ${script}:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout + r.stderr;
}
const touch = (f: string) => {
  const now = new Date();
  utimesSync(join(dir, f), now, now);
};

describe('npm ci && npm start', () => {
  it('compiles once: prestart builds only when dist is missing or older than the sources', () => {
    npmRun('prepare'); // what npm ci runs after installing
    expect(tscRuns()).toBe(1);
    npmRun('prestart'); // what npm start runs first
    expect(tscRuns()).toBe(1);

    // A source edited after the build: npm start must run the new code.
    writeFileSync(join(dir, 'src', 'main.ts'), 'console.log("v2");\n');
    touch('src/main.ts');
    npmRun('prestart');
    expect(tscRuns()).toBe(2);
    expect(readFileSync(join(dir, 'dist', 'main.js'), 'utf8')).toContain('v2');
    npmRun('prestart');
    expect(tscRuns()).toBe(2);

    // A file in a subfolder, a compiler setting, a deleted dist.
    touch('src/http/app.ts');
    npmRun('prestart');
    expect(tscRuns()).toBe(3);
    touch('tsconfig.build.json');
    npmRun('prestart');
    expect(tscRuns()).toBe(4);
    rmSync(join(dir, 'dist'), { recursive: true });
    npmRun('prestart');
    expect(tscRuns()).toBe(5);
    expect(existsSync(join(dir, 'dist', 'main.js'))).toBe(true);
    // `npm run build` always compiles.
    npmRun('build');
    expect(tscRuns()).toBe(6);
  }, 60_000);

  it('a failed compilation is not taken for an up-to-date build', () => {
    const before = tscRuns();
    writeFileSync(join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), `${FAKE_TSC}process.exit(2);\n`);
    touch('src/main.ts');
    const r = spawnSync('npm', ['run', 'prestart'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    writeFileSync(join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), FAKE_TSC);
    npmRun('prestart');
    expect(tscRuns()).toBe(before + 2);
  }, 30_000);
});
