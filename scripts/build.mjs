#!/usr/bin/env node
// Builds the two parts of the gateway and records each successful build with a stamp:
//   the server:    src/ -> dist/ (tsc -p tsconfig.build.json), stamp dist/.build-stamp
//   the dashboard: dashboard/ + sdk/src -> dist/dashboard (vite build), stamp dist/.dashboard-stamp
//   node scripts/build.mjs             always builds both (`npm run build`, and `prepare`, which npm ci runs)
//   node scripts/build.mjs --if-stale  builds a part only when its output or stamp is missing, or one
//                                      of its inputs (a file or folder, tests aside, a tsconfig or
//                                      package-lock.json) changed after its last successful build
//                                      (`prestart`, `authority-sim`, `migrate`)
// So `npm ci && npm start` builds once, and `npm start` after an edit runs the edited code. File
// times, not tsc's own incremental check: that still costs seconds of type checking when nothing
// changed, and it writes nothing then, so dist's own times cannot tell a no-op from a stale build.
/* global process, console -- a Node script; eslint.config.js declares no environment for .mjs files */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';
import { DASHBOARD_INPUTS, SERVER_INPUTS, staleBecause } from './build-inputs.mjs';

const root = process.cwd(); // npm runs scripts from the package's folder
const ifStale = process.argv.includes('--if-stale');
const require = createRequire(join(root, 'package.json'));

const PARTS = [
  {
    name: 'server',
    inputs: SERVER_INPUTS,
    build() {
      // tsc's incremental state would skip emitting files it believes are already in dist.
      if (!existsSync(join(root, 'dist', 'main.js'))) rmSync(join(root, 'dist', '.tsbuildinfo'), { force: true });
      return spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' }).status;
    },
  },
  {
    name: 'dashboard',
    inputs: DASHBOARD_INPUTS,
    build() {
      const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
      if (!existsSync(vite)) {
        // An install without dev dependencies: the server runs, /dashboard says it is not built.
        console.log('dashboard: vite is not installed (npm ci without --omit=dev builds it); skipped');
        return 0;
      }
      const status = spawnSync(process.execPath, [vite, 'build', '--config', 'dashboard/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' }).status;
      if (status === 0) precompress(join(root, 'dist', 'dashboard', 'assets'));
      return status;
    },
  },
];

/**
 * Brotli and gzip copies of the dashboard's files beside them, compressed once at build time at the
 * best level: the gateway serves them to browsers that accept them (@fastify/static preCompressed),
 * a quarter of the bytes on the first load (BENCHMARKS.md "Dashboard").
 */
function precompress(folder) {
  for (const name of readdirSync(folder)) {
    if (!/\.(js|css|svg|json)$/.test(name)) continue;
    const body = readFileSync(join(folder, name));
    if (body.length < 1024) continue;
    writeFileSync(join(folder, `${name}.br`), brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(join(folder, `${name}.gz`), gzipSync(body, { level: 9 }));
  }
}

for (const part of PARTS) {
  if (ifStale) {
    const reason = staleBecause(root, part.inputs);
    if (reason === null) continue;
    console.log(`building the ${part.name}: ${reason}`);
  }
  const started = new Date();
  const stamp = join(root, part.inputs.stamp);
  rmSync(stamp, { force: true });
  const status = part.build();
  if (status !== 0) process.exit(status ?? 1);
  // Stamped with the time the build started: a source saved during the build is newer, and rebuilt.
  writeFileSync(stamp, '');
  utimesSync(stamp, started, started);
}
