import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotification } from '../src/platform/notifications/notify.js';
import { createTestApp, type TestApp } from './support/app.js';
import { testSchema } from './support/db.js';
import { eventually } from './support/webhook-receiver.js';

interface SseEvent { id: string; event: string; data: Record<string, unknown>; at: number }

/** A minimal EventSource over http.get: parses `id:`, `event:`, `data:` lines; keeps comment lines. */
function openStream(base: string, auth: Record<string, string>, lastEventId?: string) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let status = 0;
  let buffer = '';
  const req = http.get(`${base}/v1/notifications/stream`, { headers: { ...auth, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) } }, (res) => {
    status = res.statusCode ?? 0;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const e: Partial<SseEvent> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line);
          else if (line.startsWith('id: ')) e.id = line.slice(4);
          else if (line.startsWith('event: ')) e.event = line.slice(7);
          else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6));
        }
        if (e.data) events.push({ ...(e as SseEvent), at: Date.now() });
      }
    });
  });
  req.on('error', () => undefined);
  return {
    events,
    comments,
    status: () => status,
    ready: () => eventually(async () => comments.some((c) => c.startsWith(': connected')), 5_000, 'stream open'),
    close: () => req.destroy(),
  };
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

const notice = (accountId: string, title: string) => ({
  accountId, type: 'test.notice', title, body: title, data: {}, sourceKey: `test:${title}:${Math.random()}`, at: new Date(),
});

describe('notifications: server-sent events', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp(); // a second app instance on the same database
  });
  afterAll(async () => {
    await a.runtime.close();
    await b.runtime.close();
  });

  it('streams a notification written by another app instance within a second, and resumes with Last-Event-ID without loss', async () => {
    const { auth, accountId } = await a.newAccount();
    const base = await listen(a);
    const s1 = openStream(base, auth);
    await s1.ready();
    expect(s1.status()).toBe(200);
    const t0 = Date.now();
    const first = await createNotification(b.ctx, notice(accountId, 'first'));
    await eventually(async () => s1.events.length === 1, 1_000, 'first event within 1 s');
    expect(s1.events[0]!.at - t0).toBeLessThan(1_000);
    expect(s1.events[0]).toMatchObject({ event: 'notification', id: String(first!.seq), data: { id: first!.id, title: 'first', read: false } });
    s1.close();

    // Missed while disconnected: both are replayed, in order, on reconnect.
    const second = await createNotification(b.ctx, notice(accountId, 'second'));
    const third = await createNotification(b.ctx, notice(accountId, 'third'));
    const s2 = openStream(base, auth, s1.events[0]!.id);
    await eventually(async () => s2.events.length >= 2, 2_000, 'replay');
    const fourth = await createNotification(b.ctx, notice(accountId, 'fourth'));
    await eventually(async () => s2.events.length >= 3, 1_000, 'live after replay');
    expect(s2.events.map((e) => e.data.id)).toEqual([second!.id, third!.id, fourth!.id]);
    expect(s2.events.map((e) => Number(e.id))).toEqual([...s2.events.map((e) => Number(e.id))].sort((x, y) => x - y));
    s2.close();

    // Another account's stream sees none of it.
    const other = await a.newAccount();
    const s3 = openStream(base, other.auth);
    await s3.ready();
    await createNotification(b.ctx, notice(accountId, 'fifth'));
    await new Promise((r) => setTimeout(r, 300));
    expect(s3.events).toEqual([]);
    s3.close();

    // The list: unread first; reading moves it down.
    const read = await a.app.inject({ method: 'POST', url: `/v1/notifications/${fourth!.id}/read`, headers: auth });
    expect(read.json()).toMatchObject({ id: fourth!.id, read: true });
    const list = (await a.app.inject({ method: 'GET', url: '/v1/notifications?limit=3', headers: auth })).json();
    expect(list.data.map((n: { title: string }) => n.title)).toEqual(['fifth', 'third', 'second']);
    expect(list.has_more).toBe(true);
    const rest = (await a.app.inject({ method: 'GET', url: `/v1/notifications?limit=3&starting_after=${list.data[2].id}`, headers: auth })).json();
    expect(rest.data.map((n: { title: string }) => n.title)).toEqual(['first', 'fourth']);
    expect((await a.app.inject({ method: 'POST', url: `/v1/notifications/${fourth!.id}/read`, headers: other.auth })).statusCode).toBe(404);
  });
});

describe('notification sequence numbers are per account (issue 12 item 11)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.runtime.close());

  it("an account's first notification is 1 whatever other accounts received, and its stream resumes by that number", async () => {
    const a = await t.newAccount();
    const b = await t.newAccount();
    for (const title of ['a1', 'a2', 'a3']) await createNotification(t.ctx, notice(a.accountId, title));
    const firstOfB = await createNotification(t.ctx, notice(b.accountId, 'b1'));
    const listed = (await t.app.inject({ method: 'GET', url: '/v1/notifications', headers: b.auth })).json();
    expect(listed.data.map((n: { title: string; seq: number }) => [n.title, n.seq])).toEqual([['b1', 1]]);
    const ofA = (await t.app.inject({ method: 'GET', url: '/v1/notifications', headers: a.auth })).json();
    expect(ofA.data.map((n: { seq: number }) => n.seq)).toEqual([3, 2, 1]);

    const base = await listen(t);
    const live = openStream(base, b.auth);
    await live.ready();
    await createNotification(t.ctx, notice(b.accountId, 'b2'));
    await eventually(async () => live.events.length === 1, 2_000, 'live event');
    expect(live.events[0]).toMatchObject({ id: '2', data: { title: 'b2', seq: 2 } });
    live.close();
    await createNotification(t.ctx, notice(b.accountId, 'b3'));
    await createNotification(t.ctx, notice(a.accountId, 'a4'));
    const resumed = openStream(base, b.auth, '1');
    await eventually(async () => resumed.events.length >= 2, 2_000, 'replay after 1');
    expect(resumed.events.map((e) => [e.id, e.data.title])).toEqual([['2', 'b2'], ['3', 'b3']]);
    resumed.close();

    // A Last-Event-ID a stream sent before sequences were per account (the global number, larger than
    // anything the account has) resumes after that same notification.
    const global = await t.db.query<{ seq: string }>('SELECT seq::text AS seq FROM notifications WHERE id = $1', [firstOfB!.id]);
    expect(Number(global.rows[0]!.seq)).toBeGreaterThan(3);
    const legacy = openStream(base, b.auth, global.rows[0]!.seq);
    await eventually(async () => legacy.events.length >= 2, 2_000, 'replay after a legacy id');
    expect(legacy.events.map((e) => e.data.title)).toEqual(['b2', 'b3']);
    legacy.close();
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
const buses: Array<[string, Record<string, string>]> = [['PostgreSQL LISTEN/NOTIFY', {}]];
if (process.env.TEST_REDIS_URL) buses.push(['Redis pub/sub', { REDIS_URL: process.env.TEST_REDIS_URL }]);

describe.skipIf(!pgUrl).each(buses)('notifications across processes (%s)', (_name, busEnv) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_URL: pgUrl!, ...busEnv } });
  });
  afterAll(async () => t.runtime.close());

  it('an SSE client gets a notification a child process wrote within one second, and resumes without loss', async () => {
    expect(t.ctx.notifications.kind).toBe(busEnv.REDIS_URL ? 'redis' : 'postgres');
    const { auth, accountId } = await t.newAccount();
    const base = await listen(t);
    const child = (title: string) =>
      promisify(execFile)('npx', ['tsx', 'test/support/webhook-notify-child.ts', accountId, testSchema, title], {
        env: { ...process.env, DATABASE_URL: pgUrl!, REDIS_URL: busEnv.REDIS_URL ?? '' },
      }).then(({ stdout }) => {
        const [id, at] = stdout.trim().split(' ');
        return { id: id!, at: Number(at) };
      });
    const s = openStream(base, auth);
    await s.ready();
    const one = await child('one');
    await eventually(async () => s.events.length === 1, 1_000, 'cross-process event');
    expect(s.events[0]!.data.id).toBe(one.id);
    expect(s.events[0]!.id).toBe('1'); // a fresh account's first notification, whatever others got
    expect(s.events[0]!.at - one.at).toBeLessThan(1_000);
    s.close();
    const two = await child('two');
    const r = openStream(base, auth, s.events[0]!.id);
    await eventually(async () => r.events.length === 1, 2_000, 'replay after reconnect');
    expect(r.events[0]!.data.id).toBe(two.id);
    expect(r.events[0]!.id).toBe('2');
    r.close();
  });
});
