// The dashboard's end-to-end tests: a real gateway listening on loopback serves the built
// dashboard (dist/dashboard) at http://localhost:<port>/dashboard, and headless Chromium
// (playwright-core, Debian's /usr/bin/chromium) drives it like a person would. `localhost`, not
// 127.0.0.1: passkeys need a domain as RP ID, and localhost is a secure context (the
// __Host- cookies need one).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';
import type { Clock } from '../../src/kernel/clock.js';
import type { Role } from '../../src/runtime.js';
import { createTestApp, type TestApp } from './app.js';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
/** Where a run asked for them leaves a screenshot of each screen at each width (docs/guides/people-and-teams.md "Dashboard"). */
export const SCREENSHOTS = join(PROJECT_ROOT, 'test-results', 'screenshots');
/**
 * `DASHBOARD_SCREENSHOTS=1` asks for them: a full-page PNG costs 0.3-1.3 s on a busy machine and
 * nothing checks it, so a plain run (`npm test`) takes none.
 */
export const TAKE_SCREENSHOTS = /^(1|true|yes)$/i.test(process.env.DASHBOARD_SCREENSHOTS ?? '');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface DashboardWorld {
  t: TestApp;
  origin: string;
  browser: Browser;
  /** A fresh browser context (its own cookies) at the given viewport, with a page on the dashboard's origin. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

let launched: Promise<Browser> | undefined;

/**
 * One Chromium per test worker process, shared by the files it runs (vitest runs with isolate: false):
 * a launch and a close cost 1-2 s each on a busy machine, and every test opens its own context
 * anyway (its own cookies, storage and cache), so files see nothing of each other. Playwright closes
 * the browser when the worker process exits; a browser that died is launched again.
 */
function workerBrowser(): Promise<Browser> {
  launched ??= chromium
    .launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
    .then((browser) => {
      browser.on('disconnected', () => (launched = undefined));
      process.once('beforeExit', () => void browser.close());
      return browser;
    });
  launched.catch(() => (launched = undefined));
  return launched;
}

/** `role: 'all'` also runs the job worker, for screens that watch notes get authorized. */
export async function startDashboard(opts: { env?: Record<string, string>; clock?: Clock; role?: Role } = {}): Promise<DashboardWorld> {
  if (!existsSync(join(PROJECT_ROOT, 'dist', 'dashboard', 'index.html'))) throw new Error('dist/dashboard is missing: the global setup builds it (scripts/build.mjs --if-stale)');
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const t = await createTestApp({
    clock: opts.clock,
    role: opts.role,
    env: { PUBLIC_BASE_URL: origin, WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: origin, DASHBOARD_ORIGINS: origin, ...opts.env },
  });
  await t.app.listen({ host: '127.0.0.1', port });
  const browser = await workerBrowser();
  const contexts: BrowserContext[] = [];
  return {
    t,
    origin,
    browser,
    async newPage(viewport = DESKTOP) {
      const context = await browser.newContext({ viewport, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      contexts.push(context);
      const page = await context.newPage();
      // Each wait is for a condition; the cap only bounds a failing test. A machine running other work
      // beside the suite (load 8-10 on 2 cores was seen) takes well over 10 s for a page now and then.
      page.setDefaultTimeout(45_000);
      return page;
    },
    async close() {
      // This file's contexts (its pages, cookies and storage), not the worker's browser: the next file reuses it.
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      // The whole runtime, not only the HTTP app: a job runner left polling would take the next
      // test file's jobs (files share the worker's database) on a real clock.
      await t.runtime.close();
    },
  };
}

/** Puts a session (from the API: signup/login answers) into the page's browser as the dashboard's cookie (host-only: a domain without a dot; CDP refuses a Secure cookie given by an http:// url). */
export async function useSession(page: Page, origin: string, tokens: { session_token: string; refresh_token: string }): Promise<void> {
  await page.context().addCookies([
    { name: '__Host-session', value: tokens.session_token, domain: new URL(origin).hostname, path: '/', secure: true, httpOnly: true, sameSite: 'Lax' },
    { name: '__Host-refresh', value: tokens.refresh_token, domain: new URL(origin).hostname, path: '/', secure: true, httpOnly: true, sameSite: 'Strict' },
  ]);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core on the page as it is now (WCAG 2.1 A and AA rules): no serious or critical violation.
 * The message lists each one with the elements it found, to fix without rerunning.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Evaluated through the DevTools protocol: the dashboard's CSP (rightly) refuses an inline script tag.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE);
  // resultTypes: only the violations carry every node; the passes, which nobody reads, are not
  // detailed (the same rules run, the same violations come back, in about half the time).
  const violations = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 300)) })))`)) as {
    id: string;
    impact: string;
    help: string;
    nodes: string[];
  }[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${screen}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
}

/** Saves test-results/screenshots/<screen>-<desktop|phone>.png (full page), when the run asked for screenshots. */
export async function screenshot(page: Page, screen: string): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? DESKTOP.width;
  await page.screenshot({ path: join(SCREENSHOTS, `${screen}-${width <= PHONE.width ? 'phone' : 'desktop'}.png`), fullPage: true });
}

/**
 * A screen at both widths: accessible, nothing wider than the viewport (no sideways scrolling on a
 * phone), and a screenshot of each when asked. `open` brings the page to the screen and waits for
 * its content; it runs once per width, so each width is a fresh load of the screen at that width
 * (one context for both: the second load finds the dashboard's files in its cache, like a person
 * coming back to the dashboard, instead of a new browser profile each time).
 */
export async function checkScreen(world: DashboardWorld, screen: string, session: { session_token: string; refresh_token: string }, open: (page: Page) => Promise<void>): Promise<void> {
  const page = await world.newPage(DESKTOP);
  await useSession(page, world.origin, session);
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await open(page);
    await expectAccessible(page, `${screen} at ${viewport.width}px`);
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow, `${screen} at ${viewport.width}px scrolls sideways`).toBeLessThanOrEqual(0);
    await screenshot(page, screen);
  }
  await page.context().close();
}
