import { describe, expect, it } from 'vitest';
import { SvcActivationBoard, svcActivationProblem } from './svc-activation.js';

// NT 2013.007 v1.03 item 03 and 04.7 K05.3 (docs/fiscal/svc.md#deactivation-notice): a deactivation may be scheduled;
// the SVC serves until then and announces it in the last 15 minutes.
describe('SvcActivationBoard', () => {
  const t0 = new Date('2026-11-29T12:00:00Z');
  const plus = (min: number) => new Date(t0.getTime() + min * 60_000);

  it('a scheduled deactivation: active until `at`, announced in its last 15 minutes, off from then', () => {
    const board = new SvcActivationBoard();
    board.set({ uf: 'SP', active: false, at: plus(20) });
    expect([board.isActive('a', 'SP', t0), board.deactivatingAt('a', 'SP', t0)]).toEqual([true, null]);
    expect([board.isActive('a', 'SP', plus(5)), board.deactivatingAt('a', 'SP', plus(5))]).toEqual([true, plus(20)]);
    expect([board.isActive('a', 'SP', plus(20)), board.deactivatingAt('a', 'SP', plus(20))]).toEqual([false, null]);
    expect(board.isActive('a', 'RJ', plus(30))).toBe(true);
    expect(board.list()).toEqual([{ uf: 'SP', tenant: null, active: false, at: plus(20).toISOString() }]);
    board.set({ uf: 'SP', active: true });
    expect(board.isActive('a', 'SP', plus(30))).toBe(true);
  });

  it('the earliest of the operator\'s and the tenant\'s deactivations counts; without `at`, at once', () => {
    const board = new SvcActivationBoard();
    board.set({ uf: 'SP', active: false, at: plus(20) });
    board.set({ uf: 'SP', active: false, tenant: 'a' });
    expect(board.isActive('a', 'SP', t0)).toBe(false);
    expect(board.isActive('b', 'SP', t0)).toBe(true);
  });

  it('refuses an `at` that is no date, or that comes with active: true', () => {
    expect(svcActivationProblem({ uf: 'SP', active: false, at: 'soon' })).toBe('at must be a date-time');
    expect(svcActivationProblem({ uf: 'SP', active: true, at: plus(1) })).toMatch(/^at goes with active: false/);
    expect(svcActivationProblem({ uf: 'SP', active: false, at: plus(1) })).toBeNull();
  });
});
