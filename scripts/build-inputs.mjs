// What each part of the build reads, and whether its last successful build is older than any of it:
// used by scripts/build.mjs (--if-stale) and by the tests and benchmarks that start a gateway as a
// child process (bench/support/main-entry.ts), which run dist/ when it is fresh and the TypeScript
// sources otherwise. Types: build-inputs.d.mts.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The server's inputs: a file or folder under them changed after the stamp means a stale dist/. */
export const SERVER_INPUTS = { stamp: 'dist/.build-stamp', output: 'dist/main.js', folders: ['src'], files: ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'] };
/** The dashboard's. */
export const DASHBOARD_INPUTS = { stamp: 'dist/.dashboard-stamp', output: 'dist/dashboard/index.html', folders: ['dashboard', 'sdk/src'], files: ['package-lock.json'] };

/** The latest change time among a part's inputs; folders count, so a deleted file counts too. */
export function newestInput(root, part) {
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
  for (const folder of part.folders) if (existsSync(join(root, folder))) walk(join(root, folder));
  for (const file of part.files) if (existsSync(join(root, file))) see(join(root, file));
  return newest;
}

/** Why the part must be built again, or null when its last build is current. */
export function staleBecause(root, part) {
  if (!existsSync(join(root, part.output))) return `${part.output} is missing`;
  if (!existsSync(join(root, part.stamp))) return 'no successful build recorded';
  return newestInput(root, part) > statSync(join(root, part.stamp)).mtimeMs ? 'sources changed since the last build' : null;
}
