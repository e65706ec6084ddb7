// A software authenticator for tests: a PROTOCOL-LEVEL TEST DOUBLE, not a security device. It does
// what a CTAP2 authenticator plus the browser do for a relying party, in a few lines: an ES256 key
// pair per credential (node:crypto), attestation "none", authenticator data (RP ID hash, flags,
// signature counter, attested credential data with the COSE key) and the client data JSON a browser
// would build (WebAuthn L3 §5.8.1, §6.1, §6.5.4). The test decides the origin, the flags and the
// counter, so it can play a phishing page or a cloned authenticator. No attestation certificates,
// no extensions, no PIN: the test says "verified" and it is.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor>;

/** The few CBOR types WebAuthn needs (RFC 8949 §3.1): integers, byte and text strings, arrays, maps, in the given order. */
export function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64u = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

// Authenticator data flags (WebAuthn L3 §6.1): user present, user verified, attested credential data included.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftCredential {
  id: Buffer;
  rpId: string;
  userHandle: Buffer;
  privateKey: KeyObject;
  /** The signature counter the next assertion reports minus one; a test may set it (a clone). */
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string | undefined; name: string };
  user: { id: string; name: string };
  excludeCredentials?: { id: string }[] | undefined;
}

interface RequestOptions {
  challenge: string;
  rpId?: string | undefined;
  allowCredentials?: { id: string }[] | undefined;
}

export interface CeremonyTweaks {
  /** The page the browser is on (default: the authenticator's origin). */
  origin?: string;
  /** Flags: user verified (default true). */
  userVerified?: boolean;
  /** Which credential answers (default: the first allowed one, or the newest for the RP). */
  credentialId?: string;
  /** Report this counter instead of counting up. */
  counter?: number;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  constructor(readonly origin: string) {}

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter >>> 0);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), c, ...(attested ? [attested] : [])]);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  /** navigator.credentials.create() + toJSON(): a RegistrationResponseJSON. */
  create(options: CreationOptions, tweaks: CeremonyTweaks = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => c.rpId === rpId && excluded.has(b64u(c.id)))) throw new Error('InvalidStateError: already registered');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key (RFC 9053 §7.1.1): kty EC2, alg ES256, crv P-256, x, y, in CTAP2 canonical key order.
    const coseKey = cbor(new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
    const id = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16) /* AAGUID: none */, idLength, id, coseKey]);
    const flags = UP | (tweaks.userVerified === false ? 0 : UV) | AT;
    const authData = this.authData(rpId, flags, 0, attested);
    const attestationObject = cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    this.credentials.push({ id, rpId, userHandle: Buffer.from(options.user.id, 'base64url'), privateKey, counter: 0 });
    return {
      id: b64u(id),
      rawId: b64u(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(this.clientData('webauthn.create', options.challenge, tweaks.origin ?? this.origin)),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() + toJSON(): an AuthenticationResponseJSON. */
  get(options: RequestOptions, tweaks: CeremonyTweaks = {}) {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = options.allowCredentials?.map((c) => c.id);
    const mine = this.credentials.filter((c) => c.rpId === rpId && (!allowed?.length || allowed.includes(b64u(c.id))));
    const cred = tweaks.credentialId ? mine.find((c) => b64u(c.id) === tweaks.credentialId) : allowed?.length ? mine[0] : mine.at(-1);
    if (!cred) throw new Error('NotAllowedError: no credential for this RP');
    cred.counter = tweaks.counter ?? cred.counter + 1;
    const flags = UP | (tweaks.userVerified === false ? 0 : UV);
    const authData = this.authData(rpId, flags, cred.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tweaks.origin ?? this.origin);
    // WebAuthn L3 §6.3.3 step 11: the signature covers authenticatorData || SHA-256(clientDataJSON); ES256 signatures are DER.
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), cred.privateKey);
    return {
      id: b64u(cred.id),
      rawId: b64u(cred.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: b64u(cred.userHandle),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
