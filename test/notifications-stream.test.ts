import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotification } from '../src/platform/notifications/notify.js';
import { createTestApp, type TestApp } from './support/app.js';
import { testSchema } from './support/db.js';
import { eventually } from './support/webhook-receiver.js';

interface SseEvent { id: string; event: string; data: Record<string, unknown>; heartbeatsBefore: number }

/**
 * A minimal EventSource over http.get: parses `id:`, `event:`, `data:` lines; keeps comment lines.
 * Each event notes how many heartbeat comments (`: heartbeat <server time>`) came before it.
 */
function openStream(base: string, auth: Record<string, string>, lastEventId?: string) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const heartbeats: number[] = []; // server times
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
          if (line.startsWith(': heartbeat ')) heartbeats.push(Date.parse(line.slice(12)));
          if (line.startsWith(':')) comments.push(line);
          else if (line.startsWith('id: ')) e.id = line.slice(4);
          else if (line.startsWith('event: ')) e.event = line.slice(7);
          else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6));
        }
        if (e.data) events.push({ ...(e as SseEvent), heartbeatsBefore: heartbeats.length });
      }
    });
  });
  req.on('error', () => undefined);
  return {
    events,
    comments,
    status: () => status,
    ready: () => eventually(async () => comments.some((c) => c.startsWith(': connected')), 20_000, 'stream open'),
    /**
     * The event was pushed by the wake-up, not picked up by a heartbeat's re-read (every 15 s, the
     * fallback for a lost wake-up): no heartbeat written at or after `writtenAt` came before it.
     * This is what "within a second" means on an idle machine, without timing a loaded one.
     */
    heartbeatsSince: (writtenAt: number, event: SseEvent) => heartbeats.slice(0, event.heartbeatsBefore).filter((t) => t >= writtenAt),
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

  it('streams a notification written by another app instance at once (not at the next heartbeat), and resumes with Last-Event-ID without loss', async () => {
    const { auth, accountId } = await a.newAccount();
    const base = await listen(a);
    const s1 = openStream(base, auth);
    await s1.ready();
    expect(s1.status()).toBe(200);
    const t0 = Date.now();
    const first = await createNotification(b.ctx, notice(accountId, 'first'));
    await eventually(async () => s1.events.length === 1, 20_000, 'first event');
    expect(s1.heartbeatsSince(t0, s1.events[0]!), 'heartbeats before the event').toEqual([]);
    expect(s1.events[0]).toMatchObject({ event: 'notification', id: String(first!.seq), data: { id: first!.id, title: 'first', read: false } });
    s1.close();

    // Missed while disconnected: both are replayed, in order, on reconnect.
    const second = await createNotification(b.ctx, notice(accountId, 'second'));
    const third = await createNotification(b.ctx, notice(accountId, 'third'));
    const s2 = openStream(base, auth, s1.events[0]!.id);
    await eventually(async () => s2.events.length >= 2, 20_000, 'replay');
    const t4 = Date.now();
    const fourth = await createNotification(b.ctx, notice(accountId, 'fourth'));
    await eventually(async () => s2.events.length >= 3, 20_000, 'live after replay');
    expect(s2.heartbeatsSince(t4, s2.events[2]!), 'heartbeats before the live event').toEqual([]);
    expect(s2.events.map((e) => e.data.id)).toEqual([second!.id, third!.id, fourth!.id]);
    expect(s2.events.map((e) => Number(e.id))).toEqual([...s2.events.map((e) => Number(e.id))].sort((x, y) => x - y));
    s2.close();

    // Another account's stream sees none of it: once that stream has read past it (it got a
    // notification of its own written afterwards), it has shown only its own.
    const other = await a.newAccount();
    const s3 = openStream(base, other.auth);
    await s3.ready();
    await createNotification(b.ctx, notice(accountId, 'fifth'));
    const own = await createNotification(b.ctx, notice(other.accountId, 'for the other account'));
    await eventually(async () => s3.events.length >= 1, 20_000, "the other account's own notification");
    expect(s3.events.map((e) => e.data.id)).toEqual([own!.id]);
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
  }, 60_000);
});

describe('notification sequence numbers are per account', () => {
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
    await eventually(async () => live.events.length === 1, 20_000, 'live event');
    expect(live.events[0]).toMatchObject({ id: '2', data: { title: 'b2', seq: 2 } });
    live.close();
    await createNotification(t.ctx, notice(b.accountId, 'b3'));
    await createNotification(t.ctx, notice(a.accountId, 'a4'));
    const resumed = openStream(base, b.auth, '1');
    await eventually(async () => resumed.events.length >= 2, 20_000, 'replay after 1');
    expect(resumed.events.map((e) => [e.id, e.data.title])).toEqual([['2', 'b2'], ['3', 'b3']]);
    resumed.close();

    // A Last-Event-ID a stream sent before sequences were per account (the global number, larger than
    // anything the account has) resumes after that same notification.
    const global = await t.db.query<{ seq: string }>('SELECT seq::text AS seq FROM notifications WHERE id = $1', [firstOfB!.id]);
    expect(Number(global.rows[0]!.seq)).toBeGreaterThan(3);
    const legacy = openStream(base, b.auth, global.rows[0]!.seq);
    await eventually(async () => legacy.events.length >= 2, 20_000, 'replay after a legacy id');
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

  it('an SSE client gets a notification a child process wrote at once (not at the next heartbeat), and resumes without loss', async () => {
    expect(t.ctx.notifications.kind).toBe(busEnv.REDIS_URL ? 'redis' : 'postgres');
    const { auth, accountId } = await t.newAccount();
    const base = await listen(t);
    const child = (title: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/support/webhook-notify-child.ts', accountId, testSchema, title], {
        env: { ...process.env, DATABASE_URL: pgUrl!, REDIS_URL: busEnv.REDIS_URL ?? '' },
      }).then(({ stdout }) => {
        const [id, at] = stdout.trim().split(' ');
        return { id: id!, at: Number(at) };
      });
    const s = openStream(base, auth);
    await s.ready();
    const one = await child('one');
    await eventually(async () => s.events.length === 1, 20_000, 'cross-process event');
    expect(s.events[0]!.data.id).toBe(one.id);
    expect(s.events[0]!.id).toBe('1'); // a fresh account's first notification, whatever others got
    expect(s.heartbeatsSince(one.at, s.events[0]!), 'heartbeats before the event').toEqual([]);
    s.close();
    const two = await child('two');
    const r = openStream(base, auth, s.events[0]!.id);
    await eventually(async () => r.events.length === 1, 20_000, 'replay after reconnect');
    expect(r.events[0]!.data.id).toBe(two.id);
    expect(r.events[0]!.id).toBe('2');
    r.close();
  }, 120_000); // two child processes started through tsx: seconds each on a loaded machine
});
