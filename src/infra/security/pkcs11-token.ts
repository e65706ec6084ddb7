// A logged-in session on one PKCS#11 token (an HSM; SoftHSM2 in tests) through graphene-pk11, and
// AES-GCM with keys that never leave it. Shared by the pkcs11 key provider, `hsm-init` and the KMS
// test double. Calls are synchronous (pkcs11js): one operation at a time on the session, as
// PKCS#11 requires of a session (v2.40 section 5.6: no concurrent operations), and an AES-GCM over
// 32 bytes takes microseconds in a token reached through a local library.
import { randomBytes } from 'node:crypto';
import * as graphene from 'graphene-pk11';
import { KeyProviderUnavailableError, SecretDecryptionError } from './key-provider.js';

export interface Pkcs11TokenSettings {
  /** Path of the PKCS#11 library (PKCS11_LIBRARY). */
  library: string;
  /** Label of the token (PKCS11_TOKEN_LABEL). */
  tokenLabel: string;
  /** User PIN (PKCS11_PIN); never shown in an error. */
  pin: string;
}

/** The token cannot be used as configured (no such token, wrong PIN, no key): fix the settings. */
export class Pkcs11SetupError extends Error {
  override readonly name = 'Pkcs11SetupError';
}

// Result codes (PKCS#11 v2.40 section 3.6) this file tells apart.
const CKR = {
  GENERAL_ERROR: 0x05,
  FUNCTION_FAILED: 0x06,
  DEVICE_ERROR: 0x30,
  DEVICE_REMOVED: 0x32,
  ENCRYPTED_DATA_INVALID: 0x40,
  ENCRYPTED_DATA_LEN_RANGE: 0x41,
  KEY_HANDLE_INVALID: 0x60,
  OBJECT_HANDLE_INVALID: 0x82,
  PIN_INCORRECT: 0xa0,
  PIN_LEN_RANGE: 0xa2,
  PIN_LOCKED: 0xa4,
  SESSION_CLOSED: 0xb0,
  SESSION_HANDLE_INVALID: 0xb3,
  TOKEN_NOT_PRESENT: 0xe0,
  USER_ALREADY_LOGGED_IN: 0x100,
  USER_NOT_LOGGED_IN: 0x101,
  CRYPTOKI_NOT_INITIALIZED: 0x190,
} as const;

/** The session or token went away (token removed, session closed, logged out): reopening may help. */
const SESSION_LOST = new Set<number>([
  CKR.DEVICE_REMOVED, CKR.DEVICE_ERROR, CKR.SESSION_CLOSED, CKR.SESSION_HANDLE_INVALID, CKR.TOKEN_NOT_PRESENT,
  CKR.USER_NOT_LOGGED_IN, CKR.KEY_HANDLE_INVALID, CKR.OBJECT_HANDLE_INVALID, CKR.CRYPTOKI_NOT_INITIALIZED,
]);

function ckr(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** `CKR_…` name of a PKCS#11 error (pkcs11js puts it first in the message); never carries data. */
function ckrName(err: unknown): string {
  const m = /CKR_[A-Z_]+/.exec(err instanceof Error ? err.message : String(err));
  return m ? m[0] : 'unknown error';
}

// C_Initialize once per library per process (a second C_Initialize answers
// CKR_CRYPTOKI_ALREADY_INITIALIZED, and C_Finalize ends every session the process has on it), and
// the login state is per application and token (PKCS#11 v2.40 section 5.5: C_Logout logs out every
// session of the token): count who uses what, finalize and log out only for the last user.
interface LoadedLibrary {
  module: graphene.Module;
  users: number;
  /** Sessions logged in per token serial number. */
  logins: Map<string, number>;
}
const libraries = new Map<string, LoadedLibrary>();

function acquireLibrary(path: string): LoadedLibrary {
  let lib = libraries.get(path);
  if (!lib) {
    let module: graphene.Module;
    try {
      module = graphene.Module.load(path);
      module.initialize();
    } catch (err) {
      throw new Pkcs11SetupError(`PKCS11_LIBRARY "${path}" cannot be loaded and initialised: ${err instanceof Error ? err.message : String(err)}`);
    }
    lib = { module, users: 0, logins: new Map() };
    libraries.set(path, lib);
  }
  lib.users += 1;
  return lib;
}

function releaseLibrary(path: string): void {
  const lib = libraries.get(path);
  if (!lib) return;
  lib.users -= 1;
  if (lib.users > 0) return;
  libraries.delete(path);
  try {
    lib.module.finalize();
    lib.module.close();
  } catch {
    // Already finalised (process shutting down): nothing left to release.
  }
}

export interface AesKeyOptions {
  /** CKA_ID (default: 16 random bytes). */
  id?: Buffer;
  /** CKA_TOKEN: kept in the token (default) or a session object gone when the session closes. */
  persistent?: boolean;
}

export class Pkcs11Token {
  readonly settings: Pkcs11TokenSettings;
  /** The token's serial number (CKA/CK_TOKEN_INFO serialNumber), trimmed. */
  serial = '';
  #lib: LoadedLibrary | undefined;
  #session: graphene.Session | undefined;
  readonly #keys = new Map<string, graphene.SecretKey>();

  private constructor(settings: Pkcs11TokenSettings) {
    this.settings = settings;
  }

  /** Loads the library (once per process), finds the token by label, opens an RW session and logs in. */
  static open(settings: Pkcs11TokenSettings): Pkcs11Token {
    const token = new Pkcs11Token(settings);
    token.#lib = acquireLibrary(settings.library);
    try {
      token.#openSession();
    } catch (err) {
      releaseLibrary(settings.library);
      token.#lib = undefined;
      throw err;
    }
    return token;
  }

  #openSession(): void {
    const lib = this.#lib;
    if (!lib) throw new KeyProviderUnavailableError('The PKCS#11 token is closed.');
    const slot = findSlot(lib.module, this.settings.tokenLabel);
    const session = slot.open(graphene.SessionFlag.SERIAL_SESSION | graphene.SessionFlag.RW_SESSION);
    const serial = slot.getToken().serialNumber.trim();
    try {
      session.login(this.settings.pin, graphene.UserType.USER);
    } catch (err) {
      const code = ckr(err);
      if (code !== CKR.USER_ALREADY_LOGGED_IN) {
        session.close();
        if (code === CKR.PIN_INCORRECT || code === CKR.PIN_LEN_RANGE || code === CKR.PIN_LOCKED) {
          throw new Pkcs11SetupError(`PKCS11_PIN is not accepted as the user PIN of token "${this.settings.tokenLabel}" (${ckrName(err)}).`);
        }
        throw new KeyProviderUnavailableError(`The PKCS#11 login to token "${this.settings.tokenLabel}" failed (${ckrName(err)}).`);
      }
    }
    lib.logins.set(serial, (lib.logins.get(serial) ?? 0) + 1);
    this.serial = serial;
    this.#session = session;
    this.#keys.clear();
  }

  /** After a lost session the token may be gone: that is an outage now, not a setting to fix. */
  #reopen(): void {
    try {
      this.#openSession();
    } catch (err) {
      if (err instanceof Pkcs11SetupError) throw new KeyProviderUnavailableError(err.message);
      throw err;
    }
  }

  #closeSession(): void {
    const session = this.#session;
    const lib = this.#lib;
    this.#session = undefined;
    this.#keys.clear();
    if (!session || !lib) return;
    const left = (lib.logins.get(this.serial) ?? 1) - 1;
    if (left > 0) lib.logins.set(this.serial, left);
    else lib.logins.delete(this.serial);
    try {
      if (left <= 0) session.logout();
    } catch {
      // Already logged out or the token is gone: the session is closed below either way.
    }
    try {
      session.close();
    } catch {
      // The session handle is already invalid (token removed): nothing to close.
    }
  }

  /**
   * Runs `op` on the session; when the session was lost (token removed, session closed, logged
   * out) reopens it once and retries, else KeyProviderUnavailableError naming the CKR code.
   */
  run<T>(what: string, op: (session: graphene.Session) => T): T {
    for (let attempt = 0; ; attempt++) {
      try {
        if (!this.#session) this.#reopen();
        return op(this.#session!);
      } catch (err) {
        if (err instanceof SecretDecryptionError || err instanceof Pkcs11SetupError || err instanceof KeyProviderUnavailableError) throw err;
        const code = ckr(err);
        if (code !== undefined && SESSION_LOST.has(code) && attempt === 0) {
          this.#closeSession();
          continue;
        }
        throw new KeyProviderUnavailableError(`The PKCS#11 token "${this.settings.tokenLabel}" failed to ${what} (${ckrName(err)}).`);
      }
    }
  }

  /** The AES secret key with this CKA_LABEL, or undefined. */
  findAesKey(label: string): graphene.SecretKey | undefined {
    const cached = this.#keys.get(label);
    if (cached) return cached;
    return this.run('find a key', (session) => {
      const found = session.find({ class: graphene.ObjectClass.SECRET_KEY, keyType: graphene.KeyType.AES, label });
      if (found.length === 0) return undefined;
      const key = found.items(0).toType<graphene.SecretKey>();
      this.#keys.set(label, key);
      return key;
    });
  }

  /** The AES key by label, or Pkcs11SetupError naming the setting and the command that creates it. */
  requireAesKey(label: string): graphene.SecretKey {
    const key = this.findAesKey(label);
    if (!key) {
      throw new Pkcs11SetupError(
        `No AES key labelled "${label}" (PKCS11_KEY_LABEL) in token "${this.settings.tokenLabel}": create it with \`npm run hsm:init\` (node dist/main.js hsm-init).`,
      );
    }
    return key;
  }

  /**
   * Generates an AES-256 key inside the token that can encrypt and decrypt but never be read out
   * (CKA_SENSITIVE true, CKA_EXTRACTABLE false: PKCS#11 v2.40 section 4.9).
   */
  generateAesKey(label: string, options: AesKeyOptions = {}): graphene.SecretKey {
    const id = options.id ?? randomBytes(16);
    return this.run('generate a key', (session) => {
      const key = session.generateKey(graphene.KeyGenMechanism.AES, {
        class: graphene.ObjectClass.SECRET_KEY,
        keyType: graphene.KeyType.AES,
        valueLen: 32,
        label,
        id,
        token: options.persistent ?? true,
        private: true,
        sensitive: true,
        extractable: false,
        encrypt: true,
        decrypt: true,
        wrap: false,
        unwrap: false,
      });
      this.#keys.set(label, key);
      return key;
    });
  }

  /** CKA_ID of the key labelled `label`. */
  keyIdOf(label: string): Buffer {
    const key = this.requireAesKey(label);
    return this.run('read a key id', () => Buffer.from(key.id));
  }

  /** AES-256-GCM (CKM_AES_GCM, 128-bit tag) inside the token: returns ciphertext || tag. */
  encryptGcm(keyLabel: string, iv: Buffer, aad: Buffer, data: Buffer): Buffer {
    return this.run('encrypt', (session) => {
      const key = this.requireAesKey(keyLabel);
      const cipher = session.createCipher({ name: 'AES_GCM', params: new graphene.AesGcm240Params(iv, aad, 128) }, key);
      return Buffer.from(cipher.once(data, Buffer.alloc(data.length + 16)));
    });
  }

  /** Reverses `encryptGcm`; SecretDecryptionError when the tag does not verify (altered, other key, other AAD). */
  decryptGcm(keyLabel: string, iv: Buffer, aad: Buffer, sealed: Buffer): Buffer {
    if (sealed.length < 16) throw new SecretDecryptionError('The ciphertext is truncated.');
    return this.run('decrypt', (session) => {
      const key = this.requireAesKey(keyLabel);
      try {
        const decipher = session.createDecipher({ name: 'AES_GCM', params: new graphene.AesGcm240Params(iv, aad, 128) }, key);
        return Buffer.from(decipher.once(sealed, Buffer.alloc(sealed.length)));
      } catch (err) {
        const code = ckr(err);
        if (code === CKR.ENCRYPTED_DATA_INVALID || code === CKR.ENCRYPTED_DATA_LEN_RANGE) throw new SecretDecryptionError('The ciphertext does not open with this key and context.');
        // SoftHSM answers a failed GCM tag check with CKR_GENERAL_ERROR, which a broken token could
        // answer too: tell them apart by whether the same key still encrypts.
        if ((code === CKR.GENERAL_ERROR || code === CKR.FUNCTION_FAILED) && this.#keyWorks(session, key)) {
          throw new SecretDecryptionError('The ciphertext does not open with this key and context.');
        }
        throw err;
      }
    });
  }

  #keyWorks(session: graphene.Session, key: graphene.SecretKey): boolean {
    try {
      const probe = Buffer.alloc(16);
      const cipher = session.createCipher({ name: 'AES_GCM', params: new graphene.AesGcm240Params(randomBytes(12), Buffer.alloc(0), 128) }, key);
      return cipher.once(probe, Buffer.alloc(32)).length === 32;
    } catch {
      return false;
    }
  }

  /** Logs out (when no other session of this process uses the token) and closes the session; unloads the library when unused. */
  close(): void {
    if (!this.#lib) return;
    this.#closeSession();
    releaseLibrary(this.settings.library);
    this.#lib = undefined;
  }
}

function findSlot(module: graphene.Module, tokenLabel: string): graphene.Slot {
  const slots = module.getSlots(true);
  const labels: string[] = [];
  for (let i = 0; i < slots.length; i++) {
    const slot = slots.items(i);
    const label = slot.getToken().label.trim();
    if (label === tokenLabel) return slot;
    if (label) labels.push(`"${label}"`);
  }
  throw new Pkcs11SetupError(
    `No PKCS#11 token labelled "${tokenLabel}" (PKCS11_TOKEN_LABEL)${labels.length ? `; tokens present: ${labels.join(', ')}` : ''}. Create it first (README, "Key providers (HSM and KMS)").`,
  );
}
