import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface MasterKeySource {
  /** MASTER_KEY: base64 of 32 bytes. */
  masterKey?: string | undefined;
  /** MASTER_KEY_FILE: a file holding the base64 key. */
  masterKeyFile?: string | undefined;
  /** DATA_DIR: where the sandbox keeps a generated key (`master.key`). */
  dataDir?: string | undefined;
  /** Only the sandbox may invent its own key; production must be given one (a lost key loses every secret). */
  allowGenerate: boolean;
}

export class MasterKeyError extends Error {
  override readonly name = 'MasterKeyError';
}

/** Resolves the envelope master key: MASTER_KEY, else MASTER_KEY_FILE, else `<DATA_DIR>/master.key`. */
export function loadMasterKey(source: MasterKeySource): Buffer {
  if (source.masterKey) return decodeKey(source.masterKey, 'MASTER_KEY');
  if (source.masterKeyFile) return decodeKey(readKeyFile(source.masterKeyFile, 'MASTER_KEY_FILE') ?? '', 'MASTER_KEY_FILE');
  if (!source.dataDir) throw new MasterKeyError('No master key: set MASTER_KEY, MASTER_KEY_FILE or DATA_DIR.');
  const path = join(source.dataDir, 'master.key');
  const existing = readKeyFile(path, path, true);
  if (existing !== null) return decodeKey(existing, path);
  if (!source.allowGenerate) {
    throw new MasterKeyError('No master key: set MASTER_KEY or MASTER_KEY_FILE (generating one is sandbox-only).');
  }
  mkdirSync(source.dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    // `wx`: when two processes start together, exactly one creates the file and the other reads it.
    writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return decodeKey(readKeyFile(path, path) ?? '', path);
  }
}

function readKeyFile(path: string, label: string, missingOk = false): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (missingOk && (err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new MasterKeyError(`${label}: cannot read the master key file (${(err as NodeJS.ErrnoException).code}).`);
  }
}

function decodeKey(text: string, label: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  // Buffer.from ignores junk silently; re-encoding catches anything that was not clean base64.
  if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== trimmed.replace(/=+$/, '')) {
    throw new MasterKeyError(`${label} must be the base64 encoding of exactly 32 bytes.`);
  }
  return key;
}
