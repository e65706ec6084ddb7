// /healthz/deep was public, unthrottled, probed the HSM or KMS on every call (765
// calls a second from one client) and showed authority endpoints, breaker errors and check errors to
// anybody. Now the public answer says only ok or degraded; the details need the operator's
// HEALTH_TOKEN; one round of probes answers every caller for 10 s; and it is counted per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';

const TOKEN = 'health-token-for-tests-0123456789';
let t: TestApp;
let probes = 0;
let failing = false;
const clock = new ManualClock(new Date());

beforeAll(async () => {
  t = await createTestApp({
    env: { HEALTH_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: '40' },
    clock,
    options: {
      healthChecks: () => [
        {
          name: 'hsm_probe',
          check: async () => {
            probes++;
            if (failing) throw new Error('token at https://hsm.internal.example:9999 refused (CKR_PIN_LOCKED)');
          },
        },
      ],
    },
  });
});
afterAll(async () => t.runtime.close());

const deep = (headers: Record<string, string> = {}, ip = '10.9.8.7') => t.app.inject({ method: 'GET', url: '/healthz/deep', headers, remoteAddress: ip });

describe('GET /healthz/deep', () => {
  it('without the operator token says only ok or degraded: no checks, errors, endpoints or process counters', async () => {
    const res = await deep();
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['status', 'ts']);
    expect(res.json().status).toBe('ok');
    for (const wrong of [`Bearer ${TOKEN.slice(0, -1)}x`, `Bearer ${TOKEN}x`, TOKEN, 'Bearer ']) {
      expect(Object.keys((await deep({ authorization: wrong })).json()).sort(), wrong).toEqual(['status', 'ts']);
    }
  });

  it('with the operator token shows every check, the process counters and the breakers', async () => {
    const res = await deep({ authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', checks: expect.arrayContaining([expect.objectContaining({ name: 'key_store', status: 'ok' }), expect.objectContaining({ name: 'hsm_probe' })]), process: expect.any(Object) });
  });

  it('a flood runs one round of probes per 10 s, whoever asks; a failure shows as degraded (503) without its error', async () => {
    clock.advance(60_000);
    const before = probes;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => deep(i % 2 ? {} : { authorization: `Bearer ${TOKEN}` }, `10.1.0.${i}`)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(probes - before).toBe(1);
    failing = true;
    clock.advance(9_000);
    expect((await deep({}, '10.2.0.1')).json().status).toBe('ok');
    expect(probes - before).toBe(1);
    clock.advance(1_000);
    const res = await deep({}, '10.2.0.2');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'degraded', ts: expect.any(String) });
    expect(res.body).not.toMatch(/hsm\.internal|CKR_|9999/);
    expect(probes - before).toBe(2);
    const detailed = await deep({ authorization: `Bearer ${TOKEN}` }, '10.2.0.3');
    expect(detailed.statusCode).toBe(503);
    expect(detailed.json().checks.find((c: { name: string }) => c.name === 'hsm_probe')).toMatchObject({ status: 'fail', error: expect.stringContaining('CKR_PIN_LOCKED') });
    failing = false;
  });

  it('is counted per client address like the rest: beyond the limit, 429 with Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 45; i++) answers.push(await deep({}, '10.3.3.3'));
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(answers.filter((a) => a.statusCode !== 429)).toHaveLength(40);
    expect(limited[0]!.json()).toMatchObject({ error: 'rate_limited' });
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // /healthz, the load balancer's liveness probe, is never limited.
    for (let i = 0; i < 45; i++) expect((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.3.3.3' })).statusCode).toBe(200);
  });
});
