// Reduced `npm run bench:scale`: a standalone simulator, 2 API and 2 worker processes on one
// PostgreSQL schema and one Redis. 40 sales, each sent to both APIs at once with one Idempotency-Key;
// 8 of them cancelled through both APIs at once; a low rate limit hit through both APIs from one IP.
// Needs TEST_DATABASE_URL (several processes cannot share PGlite files) and, for the rate-limit
// part, TEST_REDIS_URL (CI sets both).
import { beforeAll, describe, expect, it } from 'vitest';
import { runScale, type ScaleReport } from '../scale.js';

const dbUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const SALES = 40;
const CANCELS = 8;
const LIMIT = 10;

describe.skipIf(!dbUrl)('several API and worker processes on one database (skipped: needs TEST_DATABASE_URL, PGlite is one process only)', () => {
  let report: ScaleReport;
  const lines: string[] = [];

  beforeAll(async () => {
    report = await runScale({
      databaseUrl: dbUrl!,
      ...(redisUrl ? { redisUrl } : {}),
      sales: SALES,
      cancels: CANCELS,
      throughputSales: 0,
      concurrency: 8,
      rateLimit: LIMIT,
      simLatency: '5-40',
      timeoutMs: 120_000,
      log: (l) => lines.push(l),
    });
  }, 200_000);

  it(`${SALES} sales sent to both APIs at once: one note per key, each final and authorized once, numbers gap-free`, () => {
    expect(report.keysWithTwoNotes).toBe(0);
    expect(report.notes).toBe(SALES);
    expect(report.notFinal).toEqual([]);
    expect(report.authorizationMismatches).toEqual([]);
    expect(report.gaps).toEqual([]);
    expect(report.fiveHundreds).toBe(0);
  });

  it(`${CANCELS} notes cancelled through both APIs at once: each canceled, both answers 200/202`, () => {
    expect(report.cancelsRequested).toBe(CANCELS);
    expect(report.canceled).toBe(CANCELS);
    expect(Object.keys(report.cancelAnswers).filter((s) => s !== '200' && s !== '202')).toEqual([]);
    expect(report.failures).toEqual([]);
  });

  it.skipIf(!redisUrl)(`rate limit shared through Redis: ${LIMIT}/min across 2 API processes accepts ${LIMIT}, not twice (skipped: needs TEST_REDIS_URL)`, () => {
    expect(report.rateLimit).toMatchObject({ limit: LIMIT, sent: LIMIT * 3, accepted: LIMIT, limited: LIMIT * 2, other: 0 });
  });
});
