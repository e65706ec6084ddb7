// ─────────────────────────────────────────────────────────────────────────────────────────────────
// TEST DOUBLE of AWS KMS. This is NOT AWS KMS and is never used outside the tests.
// No AWS-compatible KMS server can be installed here, so the aws-kms key provider is tested against
// this small server that speaks KMS's wire protocol: AWS JSON 1.1 over HTTP POST /,
// `Content-Type: application/x-amz-json-1.1`, `X-Amz-Target: TrentService.<Operation>`, requests
// signed with SigV4 (checked by hand in ./sigv4-check.ts), errors as HTTP 400 with
// `{"__type": "<ExceptionName>", "message": "…"}`. Its cryptography is done by a PKCS#11 token
// (SoftHSM2, token `fg-kms-double`): each KMS key is a non-extractable AES-256 key in the token; a
// CiphertextBlob is this double's own format (magic, key id, iv, AES-GCM ciphertext with the
// encryption context as additional data). It proves what the SDK sends, its signatures, the
// encryption context binding and the error mapping; not IAM policies, rotation or CloudTrail.
// ─────────────────────────────────────────────────────────────────────────────────────────────────
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalContext } from '../../src/infra/security/encryption-context.js';
import { SecretDecryptionError } from '../../src/infra/security/key-provider.js';
import { Pkcs11Token, type Pkcs11TokenSettings } from '../../src/infra/security/pkcs11-token.js';
import { checkSigV4, type SigV4Credentials } from './sigv4-check.js';
import { softHsmSettings } from './softhsm.js';

export type KmsTarget = 'GenerateDataKey' | 'Decrypt' | 'Encrypt' | 'DescribeKey';
const TARGETS: readonly KmsTarget[] = ['GenerateDataKey', 'Decrypt', 'Encrypt', 'DescribeKey'];

const MAGIC = Buffer.from('FGKD1'); // this double's CiphertextBlob: MAGIC || key uuid (36) || iv (12) || ct+tag
const ACCOUNT = '111122223333';

class KmsError extends Error {
  constructor(readonly type: string, message: string, readonly status = 400) {
    super(message);
  }
}

interface DoubleKey {
  uuid: string;
  arn: string;
  alias: string | undefined;
  enabled: boolean;
  created: Date;
}

export interface KmsHold {
  /** Resolves when a request of the target arrived and is being held. */
  arrived: Promise<void>;
  /** Lets the held request go on. */
  release(): void;
}

export interface KmsDouble {
  /** Endpoint for AWS_KMS_ENDPOINT / KMSClient `endpoint`. */
  url: string;
  region: string;
  /** The access key the double accepts (its secret signs the requests). */
  credentials: SigV4Credentials;
  /** A new enabled key; its id is its uuid (AWS_KMS_KEY_ID may be the uuid, the ARN or `alias/<alias>`). */
  createKey(alias?: string): { keyId: string; arn: string };
  disableKey(keyId: string): void;
  enableKey(keyId: string): void;
  /** Requests received per target (all, answered or refused). */
  requests(target: KmsTarget): number;
  /** Holds the next request of `target` (after its signature was checked) until released. */
  hold(target: KmsTarget): KmsHold;
  /** Answers the next request of `target` with this error (e.g. ThrottlingException). */
  failNext(target: KmsTarget, type: string, status?: number): void;
  close(): Promise<void>;
}

export interface KmsDoubleOptions {
  /** The token doing the cryptography; default the run's `fg-kms-double` token (test/support/softhsm.ts). */
  token?: Pkcs11TokenSettings;
  region?: string;
  credentials?: SigV4Credentials;
  now?: () => Date;
}

export async function startKmsDouble(options: KmsDoubleOptions = {}): Promise<KmsDouble> {
  const region = options.region ?? 'sa-east-1';
  const credentials = options.credentials ?? { accessKeyId: `AKIAFGTEST${randomBytes(5).toString('hex').toUpperCase()}`, secretAccessKey: randomBytes(30).toString('base64') };
  const now = options.now ?? (() => new Date());
  const { library, tokenLabel, pin } = options.token ?? softHsmSettings('kmsDouble', '');
  const token = Pkcs11Token.open({ library, tokenLabel, pin });
  const keys = new Map<string, DoubleKey>();
  const counts = new Map<KmsTarget, number>();
  const holds = new Map<KmsTarget, Array<{ arrive: () => void; released: Promise<void> }>>();
  const failures = new Map<KmsTarget, Array<{ type: string; status: number }>>();
  const label = (uuid: string) => `kms-double/${uuid}`;

  const resolveKey = (id: unknown): DoubleKey => {
    if (typeof id !== 'string' || !id) throw new KmsError('ValidationException', 'KeyId is required.');
    const aliasName = id.startsWith('alias/') ? id.slice(6) : /^arn:aws:kms:[^:]+:\d+:alias\/(.+)$/.exec(id)?.[1];
    const uuid = /^arn:aws:kms:[^:]+:\d+:key\/(.+)$/.exec(id)?.[1] ?? id;
    const key = aliasName ? [...keys.values()].find((k) => k.alias === aliasName) : keys.get(uuid);
    if (!key) throw new KmsError('NotFoundException', `Key '${id}' does not exist`);
    return key;
  };
  const usable = (key: DoubleKey) => {
    if (!key.enabled) throw new KmsError('DisabledException', `${key.arn} is disabled.`);
    return key;
  };
  const contextOf = (raw: unknown): Record<string, string> => {
    if (raw === undefined) return {};
    if (!raw || typeof raw !== 'object' || Object.values(raw).some((v) => typeof v !== 'string')) throw new KmsError('ValidationException', 'EncryptionContext must map strings to strings.');
    return raw as Record<string, string>;
  };
  const aadOf = (key: DoubleKey, context: Record<string, string>) => Buffer.concat([Buffer.from(key.uuid), Buffer.from([0]), canonicalContext(context)]);
  const b64 = (raw: unknown, field: string): Buffer => {
    if (typeof raw !== 'string') throw new KmsError('ValidationException', `${field} is required.`);
    return Buffer.from(raw, 'base64');
  };

  const seal = (key: DoubleKey, plaintext: Buffer, context: Record<string, string>) => {
    const iv = randomBytes(12);
    return Buffer.concat([MAGIC, Buffer.from(key.uuid), iv, token.encryptGcm(label(key.uuid), iv, aadOf(key, context), plaintext)]);
  };
  const open = (blob: Buffer, keyIdParam: unknown, context: Record<string, string>) => {
    const head = MAGIC.length;
    if (blob.length < head + 36 + 12 + 16 || !blob.subarray(0, head).equals(MAGIC)) throw new KmsError('InvalidCiphertextException', '');
    const key = keys.get(blob.subarray(head, head + 36).toString());
    if (!key) throw new KmsError('InvalidCiphertextException', '');
    if (keyIdParam !== undefined && resolveKey(keyIdParam) !== key) throw new KmsError('IncorrectKeyException', 'The key ID in the request does not identify a CMK that can perform this operation.');
    usable(key);
    try {
      return { key, plaintext: token.decryptGcm(label(key.uuid), blob.subarray(head + 36, head + 48), aadOf(key, context), blob.subarray(head + 48)) };
    } catch (err) {
      if (err instanceof SecretDecryptionError) throw new KmsError('InvalidCiphertextException', '');
      throw err;
    }
  };

  const operations: Record<KmsTarget, (body: Record<string, unknown>) => unknown> = {
    GenerateDataKey: (body) => {
      const key = usable(resolveKey(body.KeyId));
      const bytes = body.KeySpec === 'AES_256' ? 32 : body.KeySpec === 'AES_128' ? 16 : typeof body.NumberOfBytes === 'number' ? body.NumberOfBytes : 0;
      if (bytes < 1 || bytes > 1024) throw new KmsError('ValidationException', 'KeySpec or NumberOfBytes is required.');
      const plaintext = token.run('generate random bytes', (s) => Buffer.from(s.generateRandom(bytes)));
      const blob = seal(key, plaintext, contextOf(body.EncryptionContext));
      return { KeyId: key.arn, Plaintext: plaintext.toString('base64'), CiphertextBlob: blob.toString('base64') };
    },
    Encrypt: (body) => {
      const key = usable(resolveKey(body.KeyId));
      return { KeyId: key.arn, CiphertextBlob: seal(key, b64(body.Plaintext, 'Plaintext'), contextOf(body.EncryptionContext)).toString('base64'), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
    },
    Decrypt: (body) => {
      const { key, plaintext } = open(b64(body.CiphertextBlob, 'CiphertextBlob'), body.KeyId, contextOf(body.EncryptionContext));
      return { KeyId: key.arn, Plaintext: plaintext.toString('base64'), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
    },
    DescribeKey: (body) => {
      const key = resolveKey(body.KeyId);
      return {
        KeyMetadata: {
          AWSAccountId: ACCOUNT, KeyId: key.uuid, Arn: key.arn, Enabled: key.enabled, KeyState: key.enabled ? 'Enabled' : 'Disabled',
          KeyUsage: 'ENCRYPT_DECRYPT', KeySpec: 'SYMMETRIC_DEFAULT', KeyManager: 'CUSTOMER', Origin: 'AWS_KMS',
          CreationDate: key.created.getTime() / 1000, Description: 'fiscal gateway KMS test double',
        },
      };
    },
  };

  const handle = async (req: IncomingMessage, body: Buffer): Promise<unknown> => {
    if (req.method !== 'POST' || req.url !== '/') throw new KmsError('UnknownOperationException', 'KMS takes POST /.', 404);
    const target = /^TrentService\.(\w+)$/.exec(String(req.headers['x-amz-target'] ?? ''))?.[1] as KmsTarget | undefined;
    if (!target || !TARGETS.includes(target)) throw new KmsError('UnknownOperationException', 'Unknown or missing X-Amz-Target.');
    counts.set(target, (counts.get(target) ?? 0) + 1);
    if (req.headers['content-type'] !== 'application/x-amz-json-1.1') throw new KmsError('SerializationException', 'Content-Type must be application/x-amz-json-1.1.');
    const refused = checkSigV4({ method: req.method, path: req.url, headers: req.headers, body, region, service: 'kms', credentials: [credentials], now: now() });
    if (refused) throw new KmsError(refused.type, refused.message, refused.type === 'MissingAuthenticationTokenException' ? 403 : 400);
    const hold = holds.get(target)?.shift();
    if (hold) {
      hold.arrive();
      await hold.released;
    }
    const failure = failures.get(target)?.shift();
    if (failure) throw new KmsError(failure.type, 'Injected by the test.', failure.status);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8') || '{}');
    } catch {
      throw new KmsError('SerializationException', 'The body is not JSON.');
    }
    if (!parsed || typeof parsed !== 'object') throw new KmsError('SerializationException', 'The body is not a JSON object.');
    return operations[target](parsed as Record<string, unknown>);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
        res.end(JSON.stringify(payload));
      };
      handle(req, Buffer.concat(chunks)).then(
        (out) => answer(200, out),
        (err: unknown) => {
          if (err instanceof KmsError) answer(err.status, { __type: err.type, message: err.message });
          else answer(500, { __type: 'KMSInternalException', message: err instanceof Error ? err.message : String(err) });
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const byId = (keyId: string) => {
    const key = keys.get(keyId);
    if (!key) throw new Error(`No key ${keyId} in the KMS double`);
    return key;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    region,
    credentials,
    createKey(alias) {
      const uuid = randomUUID();
      // A session object (CKA_TOKEN false): it lives as long as the double's session.
      token.generateAesKey(label(uuid), { persistent: false });
      const key = { uuid, arn: `arn:aws:kms:${region}:${ACCOUNT}:key/${uuid}`, alias, enabled: true, created: now() };
      keys.set(uuid, key);
      return { keyId: uuid, arn: key.arn };
    },
    disableKey: (keyId) => void (byId(keyId).enabled = false),
    enableKey: (keyId) => void (byId(keyId).enabled = true),
    requests: (target) => counts.get(target) ?? 0,
    hold(target) {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((r) => (arrive = r));
      const released = new Promise<void>((r) => (release = r));
      holds.set(target, [...(holds.get(target) ?? []), { arrive, released }]);
      return { arrived, release };
    },
    failNext(target, type, status = 400) {
      failures.set(target, [...(failures.get(target) ?? []), { type, status }]);
    },
    async close() {
      for (const list of holds.values()) list.splice(0);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      token.close();
    },
  };
}
