// Part of the KMS TEST DOUBLE (test/support/kms-double.ts): AWS Signature Version 4 checked by hand,
// independently of the SDK's signer, from the AWS documentation ("Create a signed AWS API request":
// canonical request, string to sign, signing key by the HMAC chain date/region/service/aws4_request).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Why a request is refused, as AWS names it (the double answers HTTP 400 with this __type). */
export type SigV4Failure = { type: 'MissingAuthenticationTokenException' | 'UnrecognizedClientException' | 'InvalidSignatureException'; message: string };

const sha256hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** Signed headers KMS's callers always sign: the target names the operation, so it must be signed. */
const REQUIRED_SIGNED = ['host', 'x-amz-date', 'x-amz-target', 'content-type'];
const MAX_SKEW_MS = 15 * 60_000; // SigV4: requests older or newer than 15 minutes are refused

/**
 * Checks the `Authorization: AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` header of
 * a request for `service` in `region`; undefined when it is valid.
 */
export function checkSigV4(input: {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  region: string;
  service: string;
  credentials: readonly SigV4Credentials[];
  now: Date;
}): SigV4Failure | undefined {
  const auth = header(input.headers, 'authorization');
  if (!auth) return { type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const m = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return { type: 'InvalidSignatureException', message: 'Authorization header is not a well-formed AWS4-HMAC-SHA256 header.' };
  const [, accessKeyId, date, region, service, signedList, signature] = m as unknown as [string, string, string, string, string, string, string];
  const creds = input.credentials.find((c) => c.accessKeyId === accessKeyId);
  if (!creds) return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  if (region !== input.region || service !== input.service) {
    return { type: 'InvalidSignatureException', message: `Credential should be scoped to a valid region and service ${input.service}.` };
  }
  const signed = signedList.split(';');
  const missing = REQUIRED_SIGNED.filter((h) => !signed.includes(h));
  if (missing.length > 0) return { type: 'InvalidSignatureException', message: `Headers not signed: ${missing.join(', ')}.` };
  const amzDate = header(input.headers, 'x-amz-date') ?? '';
  const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!when || !amzDate.startsWith(date)) return { type: 'InvalidSignatureException', message: 'X-Amz-Date is malformed or does not match the credential scope date.' };
  const at = Date.UTC(+when[1]!, +when[2]! - 1, +when[3]!, +when[4]!, +when[5]!, +when[6]!);
  if (Math.abs(at - input.now.getTime()) > MAX_SKEW_MS) return { type: 'InvalidSignatureException', message: 'Signature expired: X-Amz-Date is too far from the server time.' };

  const canonicalHeaders = signed.map((name) => `${name}:${(header(input.headers, name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const payloadHash = sha256hex(input.body);
  const declared = header(input.headers, 'x-amz-content-sha256');
  if (declared && declared !== payloadHash) return { type: 'InvalidSignatureException', message: 'The provided x-amz-content-sha256 header does not match the body.' };
  const [path, query = ''] = input.path.split('?', 2) as [string, string?];
  const canonicalRequest = [input.method, canonicalPath(path), canonicalQuery(query), canonicalHeaders, signedList, payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, date), region), service), 'aws4_request');
  const expected = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    return { type: 'InvalidSignatureException', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  return undefined;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

// URI-encode each segment as SigV4 asks (RFC 3986 unreserved characters kept); KMS posts to "/".
function canonicalPath(path: string): string {
  return path.split('/').map((s) => encodeURIComponent(decodeURIComponent(s)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('/') || '/';
}

function canonicalQuery(query: string): string {
  if (!query) return '';
  return query.split('&').map((p) => p.split('=', 2) as [string, string?]).map(([k, v = '']) => `${k}=${v}`).sort().join('&');
}
