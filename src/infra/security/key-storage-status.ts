import { performance } from 'node:perf_hooks';
import { CachedKeyProvider } from './cached-key-provider.js';
import { KEY_STORAGE_MODES, type KeyProvider, type KeyStorageMode } from './key-provider.js';

export interface KeyStorageStatus {
  /** Where certificate keys and CSCs are wrapped (KEY_PROVIDER). */
  mode: KeyStorageMode;
  /** The custody master key's non-secret id (what new blobs record). */
  master_key_id: string;
  provider: { mode: KeyStorageMode; key_id: string; label: string; cache_seconds: number };
  /** The local master key that wraps the gateway's own secrets (webhook secrets, TOTP, mail bodies). */
  local_master_key_id: string;
  healthy: boolean;
  /** A live round trip through the provider (never the cache): a fresh data key wrapped, then opened. */
  probe: { wrap_ms: number | null; unwrap_ms: number | null; error: string | null };
  /** The account's certificates and CSCs per storage mode. */
  secrets: Record<KeyStorageMode, { certificates: number; cscs: number }>;
  checked_at: string;
}

/** What GET /v1/hsm/status reports: healthy only when a wrap/unwrap round trip through the provider works now. */
export async function keyStorageStatus(
  custody: KeyProvider,
  local: KeyProvider,
  counts: readonly { kind: 'certificate' | 'csc'; mode: string; count: number }[],
  now: () => Date = () => new Date(),
): Promise<KeyStorageStatus> {
  const probe = await probeProvider(custody instanceof CachedKeyProvider ? custody.uncached : custody);
  const secrets = Object.fromEntries(KEY_STORAGE_MODES.map((m) => [m, { certificates: 0, cscs: 0 }])) as KeyStorageStatus['secrets'];
  for (const c of counts) {
    const slot = secrets[c.mode as KeyStorageMode];
    if (slot) slot[c.kind === 'certificate' ? 'certificates' : 'cscs'] += c.count;
  }
  return {
    mode: custody.mode,
    master_key_id: custody.keyId,
    provider: {
      mode: custody.mode,
      key_id: custody.keyId,
      label: custody.label,
      cache_seconds: custody instanceof CachedKeyProvider ? Math.round(custody.ttlMs / 1000) : 0,
    },
    local_master_key_id: local.keyId,
    healthy: probe.error === null,
    probe,
    secrets,
    checked_at: now().toISOString(),
  };
}

async function probeProvider(provider: KeyProvider): Promise<KeyStorageStatus['probe']> {
  const context = { purpose: 'hsm-status-probe' };
  const ms = (t0: number) => Math.round((performance.now() - t0) * 1000) / 1000;
  let wrapMs: number | null = null;
  try {
    let t0 = performance.now();
    const key = await provider.generateDataKey(context);
    wrapMs = ms(t0);
    t0 = performance.now();
    const opened = await provider.unwrap(key.wrapped, context);
    const unwrapMs = ms(t0);
    const same = opened.equals(key.plaintext);
    opened.fill(0);
    key.plaintext.fill(0);
    return { wrap_ms: wrapMs, unwrap_ms: unwrapMs, error: same ? null : 'the data key came back altered' };
  } catch (err) {
    // The error's name and message only (a provider's message never carries key material or PINs).
    return { wrap_ms: wrapMs, unwrap_ms: null, error: err instanceof Error ? `${err.name}: ${err.message}` : 'unknown error' };
  }
}
