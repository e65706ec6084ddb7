// The hostile suite of bench/hostile.ts in its fast form (`npm run test:proofs`). Production-mode API processes
// (two on one PostgreSQL schema + Redis when TEST_DATABASE_URL / TEST_REDIS_URL are set, else one on
// PGlite), each attack as a client of its own, every answer checked, no process exit, and /healthz
// of every process answering throughout. Timeouts are short here (the bench runs the defaults) and
// the /healthz bound is loose: `npm run test:proofs` shares the machine with other test files, while
// `npm run bench:hostile` holds it to 200 ms on a quiet machine.
import { beforeAll, describe, expect, it } from 'vitest';
import { runHostile, type HostileReport } from '../hostile.js';
import { HOSTILE_CASES } from '../support/hostile-cases.js';

const dbUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

describe(`hostile requests against production-mode gateways (${dbUrl ? `2 processes on PostgreSQL${redisUrl ? ' + Redis' : ''}` : '1 process on PGlite'})`, () => {
  let report: HostileReport;
  const lines: string[] = [];

  beforeAll(async () => {
    report = await runHostile({
      ...(dbUrl ? { databaseUrl: dbUrl } : {}),
      ...(dbUrl && redisUrl ? { redisUrl } : {}),
      // Two processes share the rate limit only through Redis.
      apis: dbUrl && redisUrl ? 2 : 1,
      settings: { limit: 60, requestTimeoutMs: 1_500, headersTimeoutMs: 1_000, maxConnectionsPerIp: 128, floodRequests: 300 },
      healthBudgetMs: 2_000,
      rssSlackMb: 50,
      // A worker pool's thread (the DANFE NFC-e one) ends after 30 s unused: its heap
      // comes back then.
      rssWaitMs: 40_000,
      log: (l) => lines.push(l),
    });
  }, 240_000);

  it.each(HOSTILE_CASES.map((c) => [c.name, c.expected]))('%s: %s', (name) => {
    const c = report.cases.find((x) => x.name === name);
    expect(c, lines.join('\n')).toBeDefined();
    expect(c!.problems, `${c!.got}\n${lines.join('\n')}`).toEqual([]);
  });

  it('no process exited, and each gave back the memory the hostile phase took (within 50 MB)', () => {
    expect(report.exits).toEqual([]);
    for (const r of report.rss) expect(r.endMb, `${r.gateway}: ${JSON.stringify(r)}`).toBeLessThanOrEqual(r.startMb + 50);
  });
});
