import type { KeyProvider, KeyStorageMode } from './key-provider.js';

export interface KeyStorageStatus {
  mode: KeyStorageMode;
  master_key_id: string;
  healthy: boolean;
  checked_at: string;
}

/** What GET /v1/hsm/status reports: healthy only when a wrap/unwrap round trip works now. */
export async function keyStorageStatus(provider: KeyProvider, now: () => Date = () => new Date()): Promise<KeyStorageStatus> {
  const healthy = await provider.healthCheck().catch(() => false);
  return { mode: provider.mode, master_key_id: provider.keyId, healthy, checked_at: now().toISOString() };
}
