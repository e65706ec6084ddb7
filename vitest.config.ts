import { defineConfig } from 'vitest/config';

// The tests that drive headless Chromium (the dashboard, passkeys, the receipt page).
const BROWSER = ['test/dashboard/**/*.test.ts', 'test/people/passkeys-browser.test.ts', 'test/danfe-html.test.ts'];

// Three projects run by `npm test`; one alone with `vitest run --project NAME` (npm run test:unit,
// test:integration, test:browser). A fourth, `proofs` (bench/proofs/: the crash, hostile, scale and key
// custody proofs, real gateway processes killed or flooded for a minute or two each), runs with
// `npm run test:proofs`, which CI runs after `npm test` (.ci/run). Unit tests sit beside their modules and need no global setup beyond
// dropping old test schemas, so they start in seconds; the others need the SoftHSM2 tokens and dist/
// (built by the global setup) and, for the browser ones, Chromium, whose flows get 120 s each: a
// machine busy with other work (load 14 on 2 cores was seen) took over 30 s for a sign-up and sign-in.
export default defineConfig({
  test: {
    // One PGlite per worker process is shared by the files it runs (test/support/db.ts):
    // each instance costs ~2 s and several hundred MB, so files are not isolated.
    // The default report, and where the time went per file (test-results/test-timings.json).
    reporters: ['default', './test/support/timing-reporter.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // Each file starts from an empty database and a simulator with no outage (test/support/file-isolation.ts).
    setupFiles: ['test/support/setup-each-file.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], globalSetup: ['test/support/global-setup-schemas.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: BROWSER, globalSetup: ['test/support/global-setup.ts'] } },
      { extends: true, test: { name: 'browser', include: BROWSER, testTimeout: 120_000, globalSetup: ['test/support/global-setup.ts'] } },
      { extends: true, test: { name: 'proofs', include: ['bench/proofs/**/*.test.ts'], globalSetup: ['test/support/global-setup.ts'] } },
    ],
  },
});
