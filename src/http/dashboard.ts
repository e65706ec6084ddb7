import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../kernel/errors.js';

/** Where `npm run build` (scripts/build.mjs -> vite) writes the dashboard: dist/dashboard at the package root. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../dist/dashboard/', import.meta.url));

// The single-page app loads only its own files and talks only to this origin. Mantine sets inline
// style attributes, hence 'unsafe-inline' for styles only; scripts never run inline. DANFEs open in
// a frame of the same origin (frame-src 'self'); no other site may frame the dashboard.
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  // The page names the current build's hashed files: always asked again, never stale.
  'Cache-Control': 'no-cache',
};

/**
 * Serves the dashboard at /dashboard: the hashed files under /dashboard/assets/ cached for a year,
 * and index.html for every other path below /dashboard (the app routes in the browser), so a
 * link from an e-mail (/dashboard/verify-email?token=...) opens the right page. None of these
 * routes is in the OpenAPI document: they are pages, not the API.
 */
export async function dashboardRoutes(app: FastifyInstance, dir = DASHBOARD_DIR): Promise<void> {
  const index = join(dir, 'index.html');
  const config = { public: true, cacheable: true };
  const schema = { hide: true };
  if (!existsSync(index)) {
    // A checkout where the build has not run: say so instead of a bare 404.
    app.get('/dashboard', { config, schema }, async () => {
      throw new ApiError('service_unavailable', 'The dashboard is not built: run `npm run build` (npm ci runs it)');
    });
    app.get('/dashboard/*', { config, schema }, async () => {
      throw new ApiError('service_unavailable', 'The dashboard is not built: run `npm run build` (npm ci runs it)');
    });
    return;
  }
  const page = readFileSync(index);
  // Before the static plugin registers its routes: every built file is public, like the page.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/dashboard/assets/')) route.config = { ...(route.config ?? {}), public: true, cacheable: true };
  });
  await app.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/dashboard/assets/',
    wildcard: false, // one route per built file, found at start; anything else is not ours
    decorateReply: false,
    index: false,
    immutable: true,
    preCompressed: true, // the .br/.gz copies scripts/build.mjs wrote, chosen by Accept-Encoding
    maxAge: '365d',
    schemaHide: true,
    setHeaders: (reply) => void reply.header('X-Content-Type-Options', 'nosniff'),
  });
  const sendPage = async (_req: unknown, reply: FastifyReply) => reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(page);
  app.get('/dashboard', { config, schema }, sendPage);
  app.get('/dashboard/*', { config, schema }, async (request, reply) => {
    // A missing asset is a 404, never the page (a stale tab asking an old hashed file).
    if (request.url.startsWith('/dashboard/assets/')) throw new ApiError('not_found', 'No such dashboard file');
    return sendPage(request, reply);
  });
}
