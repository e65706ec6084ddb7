// The job exports.build is retryable. A second claim of the job (the first worker's
// lease ran out) takes the export over and the first one's writes are refused; a run after the export
// is ready changes nothing; the last attempt that fails leaves the export `failed`, not building forever.
// Driven straight through the job's use case on an API-only app (no worker claims the job meanwhile).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../src/infra/queue/queue.js';
import { buildExportJob } from '../src/platform/exports/build-export.js';
import type { Queryable } from '../src/infra/storage/db.js';
import { appendExportChunk, startExportBuild } from '../src/platform/exports/storage/export-repository.js';
import { createTestApp, type TestApp } from './support/app.js';
import { freshBranchCnpj, SP_ISSUER } from './support/nfce-flow.js';

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ auth } = await t.newAccount('Export builds'));
  issuerId = (await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: { ...SP_ISSUER, cnpj: freshBranchCnpj() } })).json().id;
}, 120_000);
afterAll(async () => t?.runtime.close());

const job = (exportId: string, attempts: number, max = 5): Job<{ exportId: string }> => ({ id: `job_build_${exportId}`, kind: 'exports.build', payload: { exportId }, attempts, max_attempts: max, run_at: new Date() });
async function requested(): Promise<string> {
  const r = await t.app.inject({ method: 'POST', url: '/v1/exports', headers: auth, payload: { issuer_id: issuerId, month: '2025-03' } });
  expect(r.statusCode, r.body).toBe(202);
  return r.json().id;
}
const show = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/exports/${id}`, headers: auth })).json();

describe('exports.build, retried', () => {
  it('a second claim takes over: the first build can no longer write; the export ends ready once', async () => {
    const id = await requested();
    expect(await show(id)).toMatchObject({ status: 'queued', progress: { files_done: 0, files_total: null } });
    // The first claim started, then its worker stalled past the lease.
    expect(await startExportBuild(t.db, id, `job_build_${id}:1`, 1, new Date())).toBeDefined();
    await buildExportJob(t.ctx, job(id, 2), 'worker-2');
    const done = await show(id);
    expect(done).toMatchObject({ status: 'ready', progress: { files_done: 1, files_total: 1 } });
    // The stalled first build wakes up: its piece is refused, nothing changes.
    expect(await appendExportChunk(t.db, id, `job_build_${id}:1`, 0, Buffer.from('late'), 1, new Date())).toBe(false);
    // A third claim after the export is ready (the job's completion was lost) builds nothing again.
    await buildExportJob(t.ctx, job(id, 3), 'worker-3');
    expect(await show(id)).toEqual(done);
    const zip = await t.app.inject({ method: 'GET', url: `/v1/exports/${id}/download`, headers: auth });
    expect(zip.rawPayload.length).toBe(done.size_bytes);
    expect(zip.headers['x-content-sha256']).toBe(done.sha256);
  });

  it('an attempt that fails is retried (the error goes to the runner); the last one leaves the export failed', async () => {
    const id = await requested();
    // Storage that refuses the ZIP's pieces: the build throws, as a database outage would.
    const broken = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver);
        return (sql: string, params?: unknown[]) => (/INSERT INTO export_chunks/.test(sql) ? Promise.reject(new Error('storage down')) : (target as Queryable).query(sql, params));
      },
    });
    const deps = { db: broken, clock: t.ctx.clock };
    await expect(buildExportJob(deps, job(id, 1, 2), 'w')).rejects.toThrow('storage down');
    expect((await show(id)).status).toBe('building');
    await expect(buildExportJob(deps, job(id, 2, 2), 'w')).rejects.toThrow('storage down');
    expect(await show(id)).toMatchObject({ status: 'failed', error: { code: 'export_failed' }, download_url: null });
    expect((await t.app.inject({ method: 'GET', url: `/v1/exports/${id}/download`, headers: auth })).statusCode).toBe(409);
  });
});
