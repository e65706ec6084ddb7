#!/usr/bin/env node
// Compiles src/ to dist/ (tsc -p tsconfig.build.json) and records a successful build in
// dist/.build-stamp.
//   node scripts/build.mjs             always compiles (`npm run build`, and `prepare`, which npm ci runs)
//   node scripts/build.mjs --if-stale  compiles only when dist/main.js or the stamp is missing, or a
//                                      file or folder under src/ (tests aside), a tsconfig or
//                                      package-lock.json changed after the last successful build
//                                      (`prestart`, `authority-sim`, `migrate`)
// So `npm ci && npm start` compiles once, and `npm start` after an edit runs the edited code. File
// times, not tsc's own incremental check: that still costs seconds of type checking when nothing
// changed, and it writes nothing then, so dist's own times cannot tell a no-op from a stale build.
/* global process, console -- a Node script; eslint.config.js declares no environment for .mjs files */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = process.cwd(); // npm runs scripts from the package's folder
const stamp = join(root, 'dist', '.build-stamp');
const ifStale = process.argv.includes('--if-stale');

/** The latest change time among the build's inputs; folders count, so a deleted file counts too. */
function newestInput() {
  let newest = 0;
  const see = (path) => {
    newest = Math.max(newest, statSync(path).mtimeMs);
  };
  const walk = (folder) => {
    see(folder);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.endsWith('.test.ts')) see(path);
    }
  };
  walk(join(root, 'src'));
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) if (existsSync(join(root, file))) see(join(root, file));
  return newest;
}

function staleBecause() {
  if (!existsSync(join(root, 'dist', 'main.js'))) return 'dist/main.js is missing';
  if (!existsSync(stamp)) return 'no successful build recorded';
  return newestInput() > statSync(stamp).mtimeMs ? 'sources changed since the last build' : null;
}

if (ifStale) {
  const reason = staleBecause();
  if (reason === null) process.exit(0);
  console.log(`building: ${reason}`);
}

const started = new Date();
// tsc's incremental state would skip emitting files it believes are already in dist.
if (!existsSync(join(root, 'dist', 'main.js'))) rmSync(join(root, 'dist', '.tsbuildinfo'), { force: true });
rmSync(stamp, { force: true });
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
// Stamped with the time the build started: a source saved during the build is newer, and rebuilt.
writeFileSync(stamp, '');
utimesSync(stamp, started, started);
