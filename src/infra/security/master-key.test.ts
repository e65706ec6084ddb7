import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMasterKey, MasterKeyError } from './master-key.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'mk-'));

describe('loadMasterKey', () => {
  it('prefers MASTER_KEY, then MASTER_KEY_FILE', () => {
    const key = randomBytes(32);
    const other = randomBytes(32);
    const file = join(tempDir(), 'key');
    writeFileSync(file, `${other.toString('base64')}\n`);
    expect(loadMasterKey({ masterKey: key.toString('base64'), masterKeyFile: file, allowGenerate: false })).toEqual(key);
    expect(loadMasterKey({ masterKeyFile: file, allowGenerate: false })).toEqual(other);
  });

  it('rejects a key that is not base64 of 32 bytes', () => {
    expect(() => loadMasterKey({ masterKey: randomBytes(16).toString('base64'), allowGenerate: false })).toThrow(MasterKeyError);
    expect(() => loadMasterKey({ masterKey: `${randomBytes(32).toString('base64')}!!`, allowGenerate: false })).toThrow(
      /exactly 32 bytes/,
    );
    expect(() => loadMasterKey({ masterKeyFile: join(tempDir(), 'absent'), allowGenerate: false })).toThrow(/ENOENT/);
  });

  it('generates the sandbox key once into DATA_DIR/master.key with mode 0600 and reuses it', () => {
    const dataDir = join(tempDir(), 'nested');
    const first = loadMasterKey({ dataDir, allowGenerate: true });
    const path = join(dataDir, 'master.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')).toEqual(first);
    expect(loadMasterKey({ dataDir, allowGenerate: true })).toEqual(first);
    // Production does not generate but does use a key already present.
    expect(loadMasterKey({ dataDir, allowGenerate: false })).toEqual(first);
  });

  it('refuses to invent a key outside the sandbox', () => {
    expect(() => loadMasterKey({ dataDir: tempDir(), allowGenerate: false })).toThrow(/sandbox-only/);
    expect(() => loadMasterKey({ allowGenerate: true })).toThrow(/DATA_DIR/);
  });
});
