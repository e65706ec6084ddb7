import { defineConfig } from 'vitest/config';

// The tests that drive headless Chromium (the dashboard, passkeys, the receipt page).
const BROWSER = ['test/dashboard/**/*.test.ts', 'test/people/passkeys-browser.test.ts', 'test/danfe-html.test.ts'];

// Three projects, all run by `npm test`; one alone with `vitest run --project NAME` (npm run test:unit,
// test:integration, test:browser). Unit tests sit beside their modules and need no global setup beyond
// the test databases' template, so they start in seconds; the others need the SoftHSM2 tokens and dist/
// (built by the global setup) and, for the browser ones, Chromium, whose flows get 120 s each: a
// machine busy with other work (load 14 on 2 cores was seen) took over 30 s for a sign-up and sign-in.
export default defineConfig({
  test: {
    // Files run one after another in a worker process without a fresh module graph each (a fresh one
    // costs seconds per file); what a file must not share, its database and its simulator, the harness
    // gives it (test/support/db.ts, per-file-db.ts): on a PostgreSQL server a database of its own, on
    // PGlite the worker's one instance (an instance costs ~2 s and several hundred MB).
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    setupFiles: ['test/support/per-file-db.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], globalSetup: ['test/support/global-setup-databases.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: BROWSER, globalSetup: ['test/support/global-setup-databases.ts', 'test/support/global-setup.ts'] } },
      { extends: true, test: { name: 'browser', include: BROWSER, testTimeout: 120_000, globalSetup: ['test/support/global-setup-databases.ts', 'test/support/global-setup.ts'] } },
    ],
  },
});
