/** Time source; tests swap it for a controllable one (idempotency expiry, rate windows, certificates). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
