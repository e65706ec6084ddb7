import { describe, expect, it } from 'vitest';
import { identifierQuery, weekOf, weekQueries } from './search-candidates.js';

// The probes' tsquery texts (migration 0026's lexemes): words become the account's words of each
// week, identifiers the account's of any week, and nothing of the query's own text is re-parsed.
describe('search probes', () => {
  it("names each week's words, newest week first, single weeks first and then wider chunks", () => {
    expect(weekQueries('acc_1', "'pao' & !'queij'", 2913, 2914)).toEqual([
      "('@acc_1/2914' & ('@acc_1/2914/pao' & !'@acc_1/2914/queij'))",
      "('@acc_1/2913' & ('@acc_1/2913/pao' & !'@acc_1/2913/queij'))",
    ]);
    const ten = weekQueries('acc_1', "'pao'", 1, 10);
    expect(ten.map((q) => (q.match(/'@acc_1\/\d+'/g) ?? []).join(' '))).toEqual([
      "'@acc_1/10'", "'@acc_1/9'", "'@acc_1/8'", "'@acc_1/7'", "'@acc_1/6' '@acc_1/5'", "'@acc_1/4' '@acc_1/3'", "'@acc_1/2' '@acc_1/1'",
    ]);
    // Ten years and a week ahead: 523 weeks in 27 probes, none wider than 32 weeks.
    const all = weekQueries('acc_1', "'pao'", 0, 522).map((q) => (q.match(/'@acc_1\/\d+'/g) ?? []).length);
    expect(all.length).toBe(27);
    expect(all.reduce((a, b) => a + b, 0)).toBe(523);
    expect(Math.max(...all)).toBe(32);
    expect(identifierQuery('acc_1', "'#3526':* | '#12'")).toBe("'@acc_1#3526':* | '@acc_1#12'");
  });

  it("keeps a quote inside a lexeme ('' in tsquery text) as it was", () => {
    expect(weekQueries('acc_1', "'d''avila'", 1, 1)).toEqual(["('@acc_1/1' & ('@acc_1/1/d''avila'))"]);
  });

  it('refuses an account id that could break out of a lexeme', () => {
    expect(() => weekQueries("acc' | 'x", "'pao'", 1, 1)).toThrow(/unexpected account id/);
    expect(() => identifierQuery("acc' | 'x", "'#12'")).toThrow(/unexpected account id/);
  });

  it('counts weeks from 1970-01-01 UTC as the index does', () => {
    expect(weekOf(new Date('1970-01-07T23:59:59.999Z'))).toBe(0);
    expect(weekOf(new Date('1970-01-08T00:00:00Z'))).toBe(1);
  });
});
