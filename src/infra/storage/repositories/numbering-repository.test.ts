import { beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../../bootstrap.js';
import { getTestDb, insertBareIssuer } from '../../../../test/support/db.js';
import type { Db } from '../db.js';
import { readSeriesState, releaseNumber, reserveNumber, reserveNumbers, retireRange } from './numbering-repository.js';

let db: Db;
beforeAll(async () => {
  db = await getTestDb();
  await prepareDatabase(db, { env: 'sandbox' });
});

const newIssuer = () => insertBareIssuer(db, 'Numbering test');

describe('gap-free numbering', () => {
  it('hands out consecutive numbers to concurrent transactions, never one number twice', async () => {
    const s = { issuerId: await newIssuer(), model: 65, serie: 1 };
    const numbers = await Promise.all(Array.from({ length: 40 }, () => db.transaction((tx) => reserveNumber(tx, s))));
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('a rolled-back sale leaves no gap and a released number is reused first', async () => {
    const s = { issuerId: await newIssuer(), model: 65, serie: 2 };
    expect(await db.transaction((tx) => reserveNumber(tx, s))).toBe(1);
    await expect(db.transaction(async (tx) => { await reserveNumber(tx, s); throw new Error('crash'); })).rejects.toThrow();
    expect(await db.transaction((tx) => reserveNumber(tx, s))).toBe(2);
    expect(await db.transaction((tx) => reserveNumber(tx, s))).toBe(3);
    await releaseNumber(db, s, 2, new Date());
    expect(await db.transaction((tx) => reserveNumber(tx, s))).toBe(2);
    expect(await db.transaction((tx) => reserveNumber(tx, s))).toBe(4);
  });

  it('a voided range is never issued', async () => {
    const s = { issuerId: await newIssuer(), model: 65, serie: 3 };
    await db.transaction((tx) => reserveNumber(tx, s)); // 1
    await releaseNumber(db, s, 1, new Date());
    await db.transaction((tx) => retireRange(tx, s, 1, 5));
    expect(await db.transaction((tx) => reserveNumber(tx, s))).toBe(6);
  });

  // Voiding 950-952 while the next number was 14 moved the series to 953, leaving
  // 14-949 neither issued nor voided.
  it('a range voided ahead of the counter leaves it where it is and is stepped over when reached', async () => {
    const s = { issuerId: await newIssuer(), model: 55, serie: 4 };
    await db.transaction((tx) => reserveNumbers(tx, s, 13)); // 1-13
    await db.transaction((tx) => retireRange(tx, s, 950, 952));
    await db.transaction((tx) => retireRange(tx, s, 16, 17));
    expect(await readSeriesState(db, s)).toMatchObject({ next: 14, skips: [[16, 17], [950, 952]] });
    expect(await db.transaction((tx) => reserveNumbers(tx, s, 3))).toEqual([14, 15, 18]);
    await db.transaction((tx) => retireRange(tx, s, 19, 949)); // reaches the counter: 19-952 are all voided now
    expect(await db.transaction((tx) => reserveNumber(tx, s))).toBe(953);
    expect(await readSeriesState(db, s)).toMatchObject({ next: 954, skips: [] });
  });
});
