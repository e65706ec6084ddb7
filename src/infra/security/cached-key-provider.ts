import { createHash } from 'node:crypto';
import type { DataKey, EncryptionContext, KeyProvider } from './key-provider.js';

interface Entry {
  key: Buffer;
  expiresAt: number;
}

export interface KeyCacheOptions {
  /** How long an opened data key is kept (KEY_CACHE_SECONDS); 0 keeps none. */
  ttlMs: number;
  /** Most data keys kept at once; the oldest goes first. */
  maxEntries?: number;
  /** Milliseconds clock (tests). */
  now?: () => number;
}

/**
 * Keeps data keys an HSM or KMS opened, for a bounded time, in this process only (a sale
 * must not wait for a KMS round trip per secret, and a key disabled in KMS must stop working within
 * KEY_CACHE_SECONDS). Keyed by a hash of the wrapped key and its context, never by anything secret;
 * an evicted key is zeroed. Wrapping is never cached: a new secret always gets a fresh data key.
 */
export class CachedKeyProvider implements KeyProvider {
  readonly #inner: KeyProvider;
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  #hits = 0;
  #misses = 0;

  constructor(inner: KeyProvider, opts: KeyCacheOptions) {
    this.#inner = inner;
    this.#ttlMs = opts.ttlMs;
    this.#max = opts.maxEntries ?? 10_000;
    this.#now = opts.now ?? Date.now;
  }

  get mode() {
    return this.#inner.mode;
  }

  get keyId(): string {
    return this.#inner.keyId;
  }

  get label(): string {
    return this.#inner.label;
  }

  /** The provider without the cache: a migration's verification must reach the token or KMS. */
  get uncached(): KeyProvider {
    return this.#inner;
  }

  get ttlMs(): number {
    return this.#ttlMs;
  }

  stats(): { entries: number; hits: number; misses: number } {
    return { entries: this.#entries.size, hits: this.#hits, misses: this.#misses };
  }

  generateDataKey(context: EncryptionContext): Promise<DataKey> {
    return this.#inner.generateDataKey(context);
  }

  async unwrap(wrapped: Buffer, context: EncryptionContext): Promise<Buffer> {
    if (this.#ttlMs <= 0) return this.#inner.unwrap(wrapped, context);
    const id = cacheKey(wrapped, context);
    const now = this.#now();
    const hit = this.#entries.get(id);
    if (hit && hit.expiresAt > now) {
      this.#hits++;
      return Buffer.from(hit.key); // a copy: callers zero what they get
    }
    if (hit) this.#evict(id);
    this.#misses++;
    const key = await this.#inner.unwrap(wrapped, context);
    if (this.#entries.size >= this.#max) this.#evict(this.#entries.keys().next().value as string);
    this.#entries.set(id, { key: Buffer.from(key), expiresAt: now + this.#ttlMs });
    return key;
  }

  healthCheck(): Promise<boolean> {
    return this.#inner.healthCheck();
  }

  /** Forgets every kept key (zeroed). */
  clear(): void {
    for (const id of [...this.#entries.keys()]) this.#evict(id);
  }

  async close(): Promise<void> {
    this.clear();
    await this.#inner.close?.();
  }

  #evict(id: string): void {
    this.#entries.get(id)?.key.fill(0);
    this.#entries.delete(id);
  }
}

function cacheKey(wrapped: Buffer, context: EncryptionContext): string {
  const ctx = Object.keys(context).sort().map((k) => `${k}=${context[k]}`).join('&');
  return createHash('sha256').update(wrapped).update('\u0000').update(ctx).digest('base64');
}
