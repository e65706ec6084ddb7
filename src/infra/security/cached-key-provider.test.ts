import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CachedKeyProvider } from './cached-key-provider.js';
import { EnvelopeKeyProvider } from './envelope-key-provider.js';
import type { EncryptionContext } from './key-provider.js';

/** Counts the unwraps that reach the provider underneath. */
function counting() {
  const inner = new EnvelopeKeyProvider(randomBytes(32));
  let unwraps = 0;
  const unwrap = inner.unwrap.bind(inner);
  inner.unwrap = (w: Buffer) => {
    unwraps++;
    return unwrap(w);
  };
  return { inner, count: () => unwraps };
}

describe('CachedKeyProvider', () => {
  const ctx: EncryptionContext = { issuer: 'iss_1', secret: 'certificate_key' };

  it('opens a data key once within the bound, again after it', async () => {
    let now = 1_000;
    const { inner, count } = counting();
    const p = new CachedKeyProvider(inner, { ttlMs: 300_000, now: () => now });
    const dk = await p.generateDataKey(ctx);
    for (let i = 0; i < 5; i++) expect((await p.unwrap(dk.wrapped, ctx)).equals(dk.plaintext)).toBe(true);
    expect(count()).toBe(1);
    now += 300_000;
    expect((await p.unwrap(dk.wrapped, ctx)).equals(dk.plaintext)).toBe(true);
    expect(count()).toBe(2);
    expect(p.stats()).toMatchObject({ hits: 4, misses: 2, entries: 1 });
  });

  it('keys the cache by context too, and hands out copies', async () => {
    const { inner, count } = counting();
    const p = new CachedKeyProvider(inner, { ttlMs: 60_000 });
    const dk = await p.generateDataKey(ctx);
    const first = await p.unwrap(dk.wrapped, ctx);
    first.fill(0); // the caller zeroes its copy
    expect((await p.unwrap(dk.wrapped, ctx)).equals(dk.plaintext)).toBe(true);
    await p.unwrap(dk.wrapped, { ...ctx, secret: 'csc' });
    expect(count()).toBe(2);
  });

  it('keeps at most maxEntries and nothing with a zero bound', async () => {
    const { inner, count } = counting();
    const p = new CachedKeyProvider(inner, { ttlMs: 60_000, maxEntries: 2 });
    const keys = await Promise.all([1, 2, 3].map(() => p.generateDataKey(ctx)));
    for (const k of keys) await p.unwrap(k.wrapped, ctx);
    expect(p.stats().entries).toBe(2);
    await p.unwrap(keys[0]!.wrapped, ctx); // evicted first
    expect(count()).toBe(4);
    const none = new CachedKeyProvider(inner, { ttlMs: 0 });
    await none.unwrap(keys[1]!.wrapped, ctx);
    await none.unwrap(keys[1]!.wrapped, ctx);
    expect(none.stats().entries).toBe(0);
    expect(count()).toBe(6);
  });
});
