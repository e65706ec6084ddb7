import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// src/kernel and dist/kernel sit at the same depth, so one relative path serves `tsx` and the compiled build.
const here = dirname(fileURLToPath(import.meta.url));

export const PROJECT_ROOT = resolve(here, '../..');
export const ASSETS_DIR = resolve(PROJECT_ROOT, 'assets');
export const FISCAL_ASSETS_DIR = resolve(ASSETS_DIR, 'fiscal');
