import type { Clock } from '../../src/kernel/clock.js';

/** A clock the test moves by hand (idempotency expiry, rate windows, certificate validity). */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | string = '2026-11-21T12:00:00.000Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(at: Date | string): void {
    this.t = new Date(at).getTime();
  }
}
