import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SsoProviderName } from '../../config.js';
import { ApiError } from '../../kernel/errors.js';
import type { PeopleDeps } from './people-deps.js';

/** How long a sign-in at the provider may take, from start to callback. */
export const SSO_STATE_SECONDS = 600;
/** The cookie that binds a flow to the browser that started it. */
export const OAUTH_COOKIE = '__Host-oauth';

/** What the `state` carries, signed: it comes back through the provider and the browser's address bar. */
export interface StatePayload {
  /** provider slot */
  p: SsoProviderName;
  /** random id: the cookie names it, and the callback spends it once */
  i: string;
  /** expiry, epoch milliseconds */
  x: number;
  /** the account to sign into */
  a?: string;
  /** where the dashboard goes afterwards (a path) */
  r?: string;
}

/** What only the browser that started the flow holds, sealed (AES-256-GCM): the PKCE verifier and the nonce. */
export interface FlowSecrets {
  p: SsoProviderName;
  i: string;
  /** PKCE code_verifier (RFC 7636 section 4.1) */
  v: string;
  /** OIDC nonce (OIDC Core 3.1.2.1) */
  n: string;
}

interface FlowKeys {
  hmac: Buffer;
  seal: Buffer;
}

/**
 * The keys of the flow: SSO_STATE_SECRET, or else a key derived from the master key (HKDF, never a
 * constant), split again per use so the HMAC key never encrypts and the sealing key never signs.
 */
export async function flowKeys(deps: Pick<PeopleDeps, 'config' | 'secrets'>): Promise<FlowKeys> {
  const base = deps.config.sso.stateSecret ? Buffer.from(deps.config.sso.stateSecret, 'utf8') : await deps.secrets.deriveKey('sso-flow');
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', base, Buffer.alloc(0), info, 32));
  return { hmac: derive('sso-state-hmac'), seal: derive('sso-cookie-aead') };
}

const b64 = (b: Buffer) => b.toString('base64url');
const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();

export const newFlowId = (): string => b64(randomBytes(18));

/** `base64url(json).base64url(HMAC-SHA256)`: integrity of what comes back, not secrecy (RFC 9700 section 4.7.1). */
export function signState(keys: FlowKeys, payload: StatePayload): string {
  const body = b64(Buffer.from(JSON.stringify(payload), 'utf8'));
  return `${body}.${b64(mac(keys.hmac, body))}`;
}

const badState = (why: string) => new ApiError('invalid_token', `The sign-in state ${why}: start the sign-in again`, [{ field: 'state', message: why }]);

/** The payload of a state this gateway signed for this provider and that has not expired. */
export function verifyState(keys: FlowKeys, state: string, provider: SsoProviderName, now: Date): StatePayload {
  const [body = '', sig = '', extra] = state.split('.');
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(keys.hmac, body);
  // Constant-time comparison: the time of a refusal tells nothing about how much of a forgery was right.
  if (extra !== undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) throw badState('is not one this gateway issued');
  let payload: StatePayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StatePayload;
  } catch {
    throw badState('is not one this gateway issued');
  }
  if (payload.p !== provider) throw badState(`was issued for another provider (${payload.p})`);
  if (typeof payload.x !== 'number' || payload.x <= now.getTime()) throw badState('has expired');
  if (typeof payload.i !== 'string') throw badState('is not one this gateway issued');
  return payload;
}

/** iv (12) | tag (16) | ciphertext, base64url; the provider is bound as associated data. */
export function sealFlow(keys: FlowKeys, flow: FlowSecrets): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.seal, iv).setAAD(Buffer.from(`sso-cookie|${flow.p}`));
  const ct = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final()]);
  return b64(Buffer.concat([iv, cipher.getAuthTag(), ct]));
}

const badCookie = (why: string) => new ApiError('invalid_token', `The sign-in cookie ${why}: start the sign-in again in this browser`, [{ field: OAUTH_COOKIE, message: why }]);

/**
 * The flow's secrets from the cookie, which must belong to the state's flow: a callback carried to
 * another browser (login CSRF, a stolen code) has no cookie or another flow's (RFC 9700 section 4.7.1).
 */
export function openFlow(keys: FlowKeys, cookie: string | undefined, state: StatePayload): FlowSecrets {
  if (!cookie) throw badCookie('is missing (it holds the PKCE verifier)');
  const raw = Buffer.from(cookie, 'base64url');
  let flow: FlowSecrets;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keys.seal, raw.subarray(0, 12))
      .setAAD(Buffer.from(`sso-cookie|${state.p}`))
      .setAuthTag(raw.subarray(12, 28));
    flow = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as FlowSecrets;
  } catch {
    throw badCookie('was altered or belongs to another provider');
  }
  if (flow.i !== state.i || flow.p !== state.p) throw badCookie('belongs to another sign-in');
  return flow;
}
