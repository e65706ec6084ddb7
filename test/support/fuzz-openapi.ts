/* eslint-disable @typescript-eslint/no-explicit-any -- the OpenAPI document and its schemas are untyped JSON walked generically */
// Fuzzing from the served OpenAPI document: every operation of GET /docs/json gets
// requests generated from its own schemas (path, query, header parameters, body), valid, boundary
// and invalid, and every answer is held to the API conventions (docs/decisions.md#api-conventions): no 5xx, every 4xx is
// the error envelope with a code that matches its status, every 2xx matches the response schema the
// document declares for that status. Shared by test/fuzz-openapi.test.ts (fast pass) and
// bench/fuzz.ts (the long run).
import { randomBytes } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import type { TestApp } from './app.js';
import { readyIssuer, sale, waitForStatus } from './nfce-flow.js';
import { xmllint, xmlsecVerify } from './xml-tools.js';
import { certFile, multipart } from '../issuers-harness.js';
import { buildPfx } from './hostile-pfx.js';
import { HOSTILE, logoPng } from './logo-samples.js';
import { ERROR_STATUS as API_ERROR_STATUS } from '../../src/kernel/errors.js';

// ajv-formats is CommonJS with a default export; under NodeNext its namespace arrives here.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, any>;

export interface Operation {
  key: string; // "POST /v1/nfce"
  method: string;
  path: string;
  params: Array<{ in: 'path' | 'query' | 'header'; name: string; required: boolean; schema: Schema }>;
  body?: { type: string; schema: Schema; required: boolean };
  responses: Record<string, Schema>;
}

export interface FuzzRequest {
  op: string;
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** The JSON body when it was generated as a value (for the XML escape check). */
  body?: unknown;
}

export interface FuzzContext {
  t: TestApp;
  auth: { authorization: string };
  /** Real ids of the fuzz account, by prefix (iss, nfce, whk, dlv, app, ntf). */
  ids: Record<string, string[]>;
  issuerId: string;
}

/** Error codes and their statuses (docs/decisions.md#api-conventions), from the one module that lists them. */
const ERROR_STATUS: Record<string, number> = API_ERROR_STATUS;

export function operationsOf(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const content = op.requestBody?.content as Record<string, { schema: Schema }> | undefined;
      const bodyType = content ? Object.keys(content)[0] : undefined;
      const responses: Record<string, Schema> = {};
      for (const [status, r] of Object.entries<any>(op.responses ?? {})) responses[status] = r;
      out.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).map((p: any) => ({ in: p.in, name: p.name, required: !!p.required, schema: p.schema ?? { type: 'string' } })),
        body: bodyType ? { type: bodyType, schema: content![bodyType]!.schema, required: !!op.requestBody.required } : undefined,
        responses,
      });
    }
  }
  return out;
}

/** OpenAPI 3.0 -> JSON Schema: `nullable: true` becomes a type union with null. */
function toJsonSchema(s: any): any {
  if (Array.isArray(s)) return s.map(toJsonSchema);
  if (!s || typeof s !== 'object') return s;
  const out: any = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'example' || k === 'nullable') continue;
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace('#/components/schemas/', '#/definitions/');
    else out[k] = toJsonSchema(v);
  }
  if (s.nullable === true) {
    if (out.type) out.type = Array.isArray(out.type) ? [...new Set([...out.type, 'null'])] : [out.type, 'null'];
    if (out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (!out.type && !out.enum) return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

export type ResponseValidator = (op: Operation, status: number, contentType: string, text: string) => string[];

/** Compiles every response schema of the document with ajv; returns the checker of one answer. */
export function responseValidator(doc: any): ResponseValidator {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  const definitions = toJsonSchema(doc.components?.schemas ?? {});
  const cache = new Map<string, ValidateFunction | null>();
  const validatorFor = (op: Operation, status: string): ValidateFunction | null => {
    const k = `${op.key} ${status}`;
    if (!cache.has(k)) {
      const schema = op.responses[status]?.content?.['application/json']?.schema;
      cache.set(k, schema ? ajv.compile({ ...toJsonSchema(schema), definitions }) : null);
    }
    return cache.get(k)!;
  };
  const errorSchema = ajv.compile({ ...toJsonSchema(doc.components.schemas.Error), definitions });

  return (op, status, contentType, text) => {
    const problems: string[] = [];
    if (status >= 500 && !(status === 503 && op.responses['503'])) problems.push(`status ${status}`);
    const isJson = /^application\/json\b/.test(contentType);
    if (status >= 400) {
      if (!isJson) return [...problems, `error answer with content-type ${contentType || '(none)'}`];
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        return [...problems, 'error answer is not JSON'];
      }
      if (!errorSchema(body)) problems.push(`error envelope: ${ajv.errorsText(errorSchema.errors)}`);
      if (typeof body?.request_id !== 'string' || !body.request_id.startsWith('req_')) problems.push('error envelope: request_id is not req_...');
      if (typeof body?.message !== 'string' || body.message.length === 0) problems.push('error envelope: empty message');
      const expected = ERROR_STATUS[body?.error];
      if (expected === undefined) problems.push(`unknown error code ${JSON.stringify(body?.error)}`);
      else if (expected !== status) problems.push(`error code ${body.error} with status ${status}`);
      const extra = Object.keys(body ?? {}).filter((k) => !['error', 'message', 'details', 'request_id'].includes(k));
      if (extra.length) problems.push(`error envelope has extra keys ${extra.join(',')}`);
      if (status >= 500 && /at \w|\.ts:|\.js:|stack|SELECT |INSERT /i.test(String(body?.message))) problems.push('internals in an error message');
      return problems;
    }
    if (status >= 200 && status < 300) {
      const declared = op.responses[String(status)];
      if (!declared) return [...problems, `undeclared success status ${status}`];
      const schema = declared.content?.['application/json']?.schema;
      if (isJson) {
        const v = validatorFor(op, String(status));
        if (v) {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            return [...problems, '2xx JSON answer does not parse'];
          }
          if (!v(body)) problems.push(`${status} body does not match its schema: ${ajv.errorsText(v.errors)}`);
        }
      } else if (schema && schema.type !== 'string' && !declared.content?.[contentType.split(';')[0]!]) {
        problems.push(`${status} with content-type ${contentType} where JSON is declared`);
      }
    }
    return problems;
  };
}

// ---------------------------------------------------------------- values

/** Text that hurts: XML metacharacters, controls, unicode beyond Latin-1, surrogates, RTL, huge. */
const nastyString = fc.oneof(
  fc.constantFrom('<&"\'>', 'a<b>&c"d\'e', ']]>', '<![CDATA[x]]>', '&amp;', '&#0;', '&#x1;', '<?xml version="1.0"?>', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'),
  fc.constantFrom('\u0000', '\u0001\u0008\u000b\u001f', '\u007f\u0080\u009f', '\t\r\n', '\ufeff', '\ud800', '\udfff', '\u202e', '\u200b', '😀', 'ção', 'Ωμέγα', '中文'),
  fc.constantFrom('NaN', 'Infinity', '-0', '1e308', '9007199254740993', '', ' ', 'null', 'true', '0x1F', '__proto__', 'constructor', '%00', '%s%n', '../../etc/passwd', "' OR 1=1 --", '${jndi:x}'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer({ min: 200, max: 70_000 }).map((n) => 'A'.repeat(n)),
);

const nastyNumber = fc.constantFrom(0, -0, 1, -1, 0.1, 0.005, 1e-10, 1e308, -1e308, 2 ** 53 + 1, -(2 ** 53 + 1), 2 ** 31, 999999999999.99, 1.23456789012, 5e-324, 12.345);

const META = '<&"\'>';

function exampleOf(s: Schema): Json | undefined {
  return s.example ?? s.default ?? (Array.isArray(s.enum) ? s.enum[0] : undefined);
}

/** A value that follows the schema (often its example), sometimes at its edges. */
function validValue(s: Schema, depth = 0): fc.Arbitrary<Json> {
  if (s.enum) return fc.constantFrom(...(s.enum as Json[]));
  if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf).map((x: Schema) => validValue(x, depth))) as fc.Arbitrary<Json>;
  const ex = exampleOf(s);
  const withEx = <T extends Json>(a: fc.Arbitrary<T>): fc.Arbitrary<Json> => (ex === undefined ? a : fc.oneof({ arbitrary: fc.constant(ex), weight: 3 }, { arbitrary: a, weight: 1 }));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      if (s.format === 'date-time') return withEx(fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()));
      if (s.format === 'uri') return withEx(fc.constantFrom('http://127.0.0.1:9/hook', 'https://example.com/x'));
      return withEx(fc.oneof(fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 60) }), fc.constant(META)));
    case 'integer':
      return withEx(fc.integer({ min: s.minimum ?? -5, max: s.maximum ?? 1000 }));
    case 'number':
      return withEx(fc.oneof(fc.double({ min: s.minimum ?? 0, max: s.maximum ?? 1e6, noNaN: true }), fc.integer({ min: 0, max: 100 })));
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (depth > 4) return fc.constant([]);
      return fc.array(validValue(s.items ?? {}, depth + 1), { minLength: s.minItems ?? 1, maxLength: Math.min(s.maxItems ?? 3, 3) });
    case 'object':
    default: {
      const props = Object.entries<Schema>(s.properties ?? {});
      if (!props.length || depth > 4) return fc.constant(ex ?? {});
      const req = new Set<string>(s.required ?? []);
      const rec: Record<string, fc.Arbitrary<Json>> = {};
      for (const [k, v] of props) rec[k] = validValue(v, depth + 1);
      return fc.record(rec, { requiredKeys: props.map(([k]) => k).filter((k) => req.has(k)) }) as fc.Arbitrary<Json>;
    }
  }
}

/** Anything of any type: wrong types, huge, nested. */
const wrongValue = fc.oneof<fc.Arbitrary<Json>[]>(
  nastyString,
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.constant({ $ne: 1 }),
  fc.constant({ __proto__: { admin: true } } as unknown as Json),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  fc.integer({ min: 50, max: 400 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as Json),
);

/** Mutates one place of a valid value: wrong type, missing required, extra key, metacharacters. */
function mutate(v: Json, s: Schema, rnd: fc.Random, wrong: () => Json): Json {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const keys = Object.keys(v);
    const choice = rnd.nextInt(0, 4);
    if (choice === 0 || keys.length === 0) return { ...v, [`x_${rnd.nextInt(0, 99)}`]: wrong() };
    const k = keys[rnd.nextInt(0, keys.length - 1)]!;
    if (choice === 1) {
      const { [k]: _drop, ...rest } = v;
      return rest;
    }
    if (choice === 2) return { ...v, [k]: wrong() };
    return { ...v, [k]: mutate(v[k]!, s.properties?.[k] ?? {}, rnd, wrong) };
  }
  if (Array.isArray(v)) {
    if (v.length === 0 || rnd.nextInt(0, 2) === 0) return [...v, wrong()];
    const i = rnd.nextInt(0, v.length - 1);
    const copy = [...v];
    copy[i] = mutate(v[i]!, s.items ?? {}, rnd, wrong);
    return copy;
  }
  return wrong();
}

/** Puts XML metacharacters into every string of a value. */
function withMetachars(v: Json, key = ''): Json {
  if (typeof v === 'string') return /^(iss|nfce|whk|app|dlv)_|^\d+$|^[A-Z]{2}$|^https?:/.test(v) || /method|uf|ambiente|regime|status|cnpj|ie|cep|ncm|cfop|cst|csosn|gtin|cest|unit|id_csc|csc|cpf/.test(key) ? v : `${v} ${META}`;
  if (Array.isArray(v)) return v.map((x) => withMetachars(x, key));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withMetachars(x, k)]));
  return v;
}

// ---------------------------------------------------------------- requests

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as a client's would). */
function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

const ID_PREFIX: Array<[RegExp, string]> = [
  [/dlvId/, 'dlv'],
  [/^\/v1\/issuers/, 'iss'],
  [/^\/v1\/nfce/, 'nfce'],
  [/^\/v1\/webhooks/, 'whk'],
  [/^\/v1\/applications/, 'app'],
  [/^\/v1\/notifications/, 'ntf'],
];

function idArb(ctx: FuzzContext, op: Operation, name: string): fc.Arbitrary<string> {
  const prefix = ID_PREFIX.find(([re]) => re.test(name === 'dlvId' ? name : op.path))?.[1] ?? 'x';
  const real = ctx.ids[prefix] ?? [];
  const random = fc.oneof(
    fc.stringMatching(/^[0-9A-Za-z]{10,24}$/).map((s) => `${prefix}_${s}`),
    fc.constantFrom(`${prefix}_`, 'iss_0', 'nfce_0', 'null', '0', '-1', '1e308', '..', '%', '%E0%A4%A', '%00', "'", '<&>'),
    nastyString.filter((s) => s.length > 0 && s.length < 3000),
  );
  const encoded = random.map((s) => (/^%/.test(s) && s !== '%' ? s : pct(s)));
  return real.length ? fc.oneof({ arbitrary: fc.constantFrom(...real), weight: 3 }, { arbitrary: encoded, weight: 2 }) : encoded;
}

const authArb = (ctx: FuzzContext) =>
  fc.oneof(
    { arbitrary: fc.constant(ctx.auth.authorization), weight: 20 },
    { arbitrary: fc.constantFrom<string | undefined>(undefined, 'Bearer ', 'Bearer sk_live_nope', 'Basic Zm9vOmJhcg==', 'Bearer sk_sandbox_public', ctx.auth.authorization + 'x', 'bearer ' + ctx.auth.authorization.slice(7)), weight: 1 },
  );

const contentTypes = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/jsonx', '', 'application/merge-patch+json', '*/*'];

/** Raw bodies a JSON.stringify never writes. */
function rawVariants(valid: string): fc.Arbitrary<{ kind: string; payload: string | Buffer; contentType?: string }> {
  const dupKey = valid.startsWith('{') && valid.length > 2 ? valid.replace(/^\{"([^"]+)":/, (m, k) => `{"${k}":"dup<&>","${k}":`) : '{"a":1,"a":2}';
  const firstNumber = (lit: string) => (/:\s*-?\d/.test(valid) ? valid.replace(/(:\s*)-?\d+(\.\d+)?(e[+-]?\d+)?/, `$1${lit}`) : `{"n":${lit}}`);
  return fc.oneof(
    fc.constant({ kind: 'raw:duplicate-keys', payload: dupKey }),
    fc.constantFrom('1e999', '-0', '1e308', '-1e308', '9007199254740993', '0.0000000000000000001', '1E+2', '123456789012345678901234567890').map((lit) => ({ kind: 'raw:number-literal', payload: firstNumber(lit) })),
    fc.constantFrom('NaN', 'Infinity', 'undefined', '01', '.5', '+1', '0x10').map((lit) => ({ kind: 'raw:invalid-json-number', payload: firstNumber(lit) })),
    fc.constant({ kind: 'raw:invalid-utf8', payload: Buffer.concat([Buffer.from(valid.slice(0, Math.max(1, valid.length - 2))), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from(valid.slice(-2))]) }),
    fc.constant({ kind: 'raw:invalid-utf8-in-string', payload: Buffer.concat([Buffer.from('{"external_ref":"'), Buffer.from([0xc0, 0xaf, 0xe0, 0x80]), Buffer.from('","description":"x"}')]) }),
    fc.constantFrom('', ' ', 'null', '[]', '"x"', '1', 'true', '{', '{"a":', '}', '{"a":1}}', '\u0000', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}').map((p) => ({ kind: 'raw:odd-json', payload: p })),
    fc.integer({ min: 1000, max: 20000 }).map((n) => ({ kind: 'raw:deep-nesting', payload: '{"a":' + '['.repeat(n) + ']'.repeat(n) + '}' })),
    fc.integer({ min: 1000, max: 20000 }).map((n) => ({ kind: 'raw:deep-objects', payload: '{"a":'.repeat(n) + '1' + '}'.repeat(n) })),
    fc.constant({ kind: 'raw:oversized', payload: '{"pad":"' + 'x'.repeat(1_100_000) + '"}' }),
    fc.constant({ kind: 'raw:bom', payload: '\ufeff' + valid }),
    fc.constantFrom(...contentTypes).map((ct) => ({ kind: `raw:content-type ${ct || '(empty)'}`, payload: valid, contentType: ct })),
  );
}

/** `bytes` with some bytes replaced (offsets and values from the generator), past the first `keep`. */
function flipBytes(bytes: Buffer, flips: Array<[number, number]>, keep: number): Buffer {
  const out = Buffer.from(bytes);
  for (const [at, value] of flips) out[keep + (at % Math.max(1, out.length - keep))] = value;
  return out;
}

// Images whose header lies (dimensions, data, length), odd but valid ones, and a real
// image with bytes flipped (test/support/logo-samples.ts).
const REAL_PNG = logoPng({ colorType: 6, bitDepth: 8, width: 24, height: 12 });
const hostileLogoArb: fc.Arbitrary<{ kind: string; body: Json }> = fc
  .oneof(
    fc.constantFrom(...(Object.keys(HOSTILE) as Array<keyof typeof HOSTILE>)).map((name) => ({ kind: `logo:${name}`, bytes: HOSTILE[name]() })),
    fc.constantFrom<Parameters<typeof logoPng>[0]>({ colorType: 3, bitDepth: 2, transparency: true }, { colorType: 6, bitDepth: 16 }, { colorType: 0, bitDepth: 1 }, { colorType: 4, bitDepth: 8, interlace: true }).map((o) => ({ kind: 'logo:odd-but-valid', bytes: logoPng(o) })),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 6 }).map((flips) => ({ kind: 'logo:flipped-bytes', bytes: flipBytes(REAL_PNG, flips, 8) })),
  )
  .map(({ kind, bytes }) => ({ kind, body: { danfeLogo: `data:${bytes[0] === 0xff ? 'image/jpeg' : 'image/png'};base64,${bytes.toString('base64')}` } as Json }));

// PKCS#12 files whose key derivation or MAC would hold a CPU for minutes (test/support/
// hostile-pfx.ts), absurd integers, and the real file with bytes flipped.
const GOOD_PFX = certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx');
const hostilePfxArb: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constantFrom<Parameters<typeof buildPfx>[0]>(
    { password: 'minhasenha', macIterations: 10_000_000 },
    { password: 'minhasenha', macIterations: 2n ** 31n },
    { password: 'minhasenha', macIterations: 2n ** 80n },
    { password: 'minhasenha', keyIterations: 10_000_000 },
    { password: 'minhasenha', keyIterations: 2n ** 31n, keyAlgorithm: '3des' },
    { password: 'minhasenha', certIterations: 10_000_000 },
  ).map((recipe) => buildPfx(recipe)),
  fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => flipBytes(GOOD_PFX, flips, 0)),
);

/**
 * The same path spelled another way (/v1/%6efce routes to /v1/nfce): unreserved characters
 * of the fixed segments percent-encoded, in lower or upper case hex.
 */
function respell(url: string, how: 'plain' | 'lower' | 'upper', seed: number): string {
  if (how === 'plain') return url;
  const [path, query] = url.split('?', 2) as [string, string | undefined];
  let n = seed;
  const out = path.replace(/\{\w+\}|[a-z]/g, (c) => {
    if (c.length > 1) return c; // a {parameter}: filled in later
    n = (n * 1103515245 + 12345) & 0x7fffffff;
    if (n % 3) return c;
    const hex = c.charCodeAt(0).toString(16);
    return `%${how === 'upper' ? hex.toUpperCase() : hex}`;
  });
  return query === undefined ? out : `${out}?${query}`;
}

export function requestArb(ctx: FuzzContext, op: Operation, opts: { allowOversized?: boolean } = {}): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const headerParams = op.params.filter((p) => p.in === 'header');
  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, idArb(ctx, op, p.name)])));
  const queryArb = fc.array(
    fc.oneof(
      ...queryParams.map((p) =>
        fc.tuple(
          fc.constant(p.name),
          fc.oneof(
            validValue(p.schema).map((v) => String(v)),
            fc.constantFrom('0', '-1', '101', '1e308', 'NaN', '', '2026-13-45', '2026-11-21T00:00:00Z', ctx.issuerId, 'authorized', 'SP', 'Sao'),
            nastyString.filter((s) => s.length < 5000),
          ),
        ),
      ),
      fc.tuple(fc.constantFrom('limit[]', 'limit', 'extra', '__proto__', 'created_at[gte][x]'), fc.constantFrom('1', 'x', '[]')),
    ),
    { maxLength: 4 },
  );
  const headerArb = fc.record(
    Object.fromEntries(
      headerParams.map((p) => [
        p.name,
        fc.oneof(
          p.name === 'prefer'
            ? fc.constantFrom('wait=1', 'wait=0', 'wait=-1', 'wait=1e308', 'wait=abc', 'respond-async', 'wait=2, handling=strict', 'wait')
            : p.name === 'idempotency-key'
              ? fc.oneof(fc.stringMatching(/^[!-~]{8,40}$/), fc.constantFrom('short', 'x'.repeat(300), 'has space in it', '\u00e7\u00e7\u00e7\u00e7\u00e7\u00e7\u00e7\u00e7'))
              : p.name === 'x-sandbox-scenario'
                ? fc.constantFrom('reject:778', 'reject:999', 'reject:abc', 'reject:', 'deny', 'unavailable', 'http-500', 'malformed', 'lost-response', 'nonsense', '<&>')
                : p.name === 'last-event-id'
                  ? fc.constantFrom('0', '-1', 'ntf_x', '1e308', "'; DROP", '99999999999999999999')
                  : fc.string({ maxLength: 20 }),
        ),
      ]),
    ),
    { requiredKeys: [] },
  );

  let bodyArb: fc.Arbitrary<{ kind: string; body?: Json; payload?: string | Buffer; contentType?: string }> = fc.constant({ kind: 'no-body' });
  if (op.body?.type === 'application/json') {
    const schema = op.body.schema;
    const base = op.key === 'POST /v1/nfce' ? fc.constant(sale(ctx.issuerId) as unknown as Json).chain((s) => fc.oneof(fc.constant(s), validValue(schema))) : validValue(schema);
    const valid = base.map((b) => ({ kind: 'valid', body: b }));
    const meta = base.map((b) => ({ kind: 'metachars', body: withMetachars(b) }));
    const mutated = fc.tuple(base, fc.array(wrongValue, { minLength: 3, maxLength: 3 }), fc.integer({ min: 1, max: 3 }), fc.infiniteStream(fc.nat())).map(([b, wrongs, times, stream]) => {
      let i = 0;
      const it = stream[Symbol.iterator]();
      const rnd = { nextInt: (min: number, max: number) => min + (it.next().value as number) % (max - min + 1) } as fc.Random;
      let v = b;
      for (let n = 0; n < times; n++) v = mutate(v, schema, rnd, () => wrongs[i++ % wrongs.length]!);
      return { kind: 'mutated', body: v };
    });
    const raw = base.chain((b) => rawVariants(JSON.stringify(b))).filter((r) => opts.allowOversized !== false || r.kind !== 'raw:oversized');
    bodyArb = fc.oneof(
      { arbitrary: valid, weight: 3 },
      { arbitrary: meta, weight: 2 },
      { arbitrary: mutated, weight: 4 },
      { arbitrary: raw, weight: 3 },
      { arbitrary: wrongValue.map((w) => ({ kind: 'wrong-root', body: w })), weight: 1 },
      ...(op.key === 'PATCH /v1/issuers/{id}/danfe-settings' ? [{ arbitrary: hostileLogoArb, weight: 6 }] : []),
    );
  } else if (op.body?.type === 'multipart/form-data') {
    const good = certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx');
    bodyArb = fc
      .record({
        password: fc.oneof(fc.constant('minhasenha'), nastyString.filter((s) => s.length < 1000)),
        file: fc.oneof(fc.constant(good), fc.constant(randomBytes(200)), fc.constant(good.subarray(0, 100)), fc.constant(Buffer.alloc(0)), fc.constant(Buffer.alloc(70_000, 1)), hostilePfxArb, hostilePfxArb),
        field: fc.constantFrom('pfx', 'file', 'pfx'),
        shape: fc.constantFrom('both', 'no-password', 'no-file', 'json', 'garbage'),
      })
      .map(({ password, file, field, shape }) => {
        if (shape === 'json') return { kind: 'multipart:json', payload: JSON.stringify({ password }), contentType: 'application/json' };
        if (shape === 'garbage') return { kind: 'multipart:garbage', payload: '--x\r\nContent-Disposition: form-data; name="pfx"\r\n\r\nabc', contentType: 'multipart/form-data; boundary=x' };
        const m = multipart(shape === 'no-password' ? {} : { password }, shape === 'no-file' ? undefined : { name: field, filename: 'c<&>".pfx', content: file });
        return { kind: `multipart:${shape}`, payload: m.payload, contentType: m.headers['content-type'] };
      });
  } else if (op.method !== 'GET' && op.method !== 'DELETE') {
    // Operations without a body: send one anyway sometimes.
    bodyArb = fc.oneof({ arbitrary: fc.constant({ kind: 'no-body' }), weight: 3 }, wrongValue.map((w) => ({ kind: 'unexpected-body', body: w })), rawVariants('{}').filter((r) => r.kind !== 'raw:oversized'));
  }

  const spellingArb = fc.oneof({ arbitrary: fc.constant<'plain'>('plain'), weight: 6 }, fc.constantFrom<'lower' | 'upper'>('lower', 'upper'));
  return fc.record({ path: pathArb, query: queryArb, headers: headerArb, body: bodyArb, auth: authArb(ctx), idem: fc.stringMatching(/^[A-Za-z0-9]{16,32}$/), spelling: spellingArb, seed: fc.nat() }).map(({ path, query, headers, body, auth, idem, spelling, seed }) => {
    let url = respell(op.path, spelling, seed).replace(/\{(\w+)\}/g, (_, n: string) => String(path[n]));
    if (query.length) url += '?' + query.map(([k, v]) => `${pct(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${pct(v)}`).join('&');
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) h[k] = String(v).replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
    if (auth !== undefined) h.authorization = auth;
    if (['POST', 'PATCH', 'PUT'].includes(op.method) && !h['idempotency-key']) h['idempotency-key'] = `fuzz-${idem}`;
    if (op.key === 'POST /v1/nfce' && h.prefer === undefined) h.prefer = 'wait=2';
    const req: FuzzRequest = { op: op.key, kind: spelling === 'plain' ? body.kind : `${body.kind} (path ${spelling}-case %-encoded)`, method: op.method, url, headers: h };
    if (body.body !== undefined) {
      req.body = body.body;
      req.payload = JSON.stringify(body.body) ?? 'null';
      h['content-type'] = 'application/json';
    } else if (body.payload !== undefined) {
      req.payload = body.payload;
      if (body.contentType === undefined) h['content-type'] = 'application/json';
      else if (body.contentType !== '') h['content-type'] = body.contentType;
    }
    return req;
  });
}

// ---------------------------------------------------------------- running

export interface Outcome {
  status: number;
  problems: string[];
  /** The id of a created record (2xx answers to POST). */
  id?: string;
}

const HANG_MS = 30_000;

/** Sends one request in process and checks the answer. */
export async function fire(ctx: FuzzContext, op: Operation, validate: ResponseValidator, req: FuzzRequest): Promise<Outcome> {
  const stream = op.key === 'GET /v1/notifications/stream';
  const started = Date.now();
  if (process.env.FUZZ_DEBUG) console.error(`-> ${req.method} ${req.url.slice(0, 120)} [${req.kind}] ${String(req.payload ?? "").slice(0, 300)} ${String(req.payload ?? "").length}`);
  let timer: NodeJS.Timeout | undefined;
  const res = await Promise.race([
    ctx.t.app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload, ...(stream ? { payloadAsStream: true } : {}) }),
    // A hang detector, not a speed check: the longest a request may legitimately take is Prefer:
    // wait=10 on POST /v1/nfce, plus whatever a loaded machine adds.
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), HANG_MS))),
  ]).finally(() => clearTimeout(timer));
  if (!res) return { status: 0, problems: [`no answer within ${HANG_MS / 1000} s`] };
  if (process.env.FUZZ_DEBUG) console.error(`<- ${res.statusCode} ${Date.now() - started} ms`);
  const contentType = String(res.headers['content-type'] ?? '');
  let text: string;
  if (stream) {
    const s = res.stream();
    if (res.statusCode === 200) {
      s.destroy();
      text = '';
    } else {
      const chunks: Buffer[] = [];
      for await (const c of s) chunks.push(Buffer.from(c));
      text = Buffer.concat(chunks).toString('utf8');
    }
  } else text = res.body;
  const problems = validate(op, res.statusCode, contentType, text);
  const id = req.method === 'POST' && res.statusCode < 300 && res.statusCode >= 200 ? harvestIds(ctx, text) : undefined;
  return { status: res.statusCode, problems, id };
}

function harvestIds(ctx: FuzzContext, text: string): string | undefined {
  try {
    const id = JSON.parse(text)?.id;
    if (typeof id !== 'string') return undefined;
    const prefix = id.split('_')[0];
    const list = (ctx.ids[prefix!] ??= []);
    if (list.length < 30) list.push(id);
    return id;
  } catch {
    return undefined;
  }
}

/** The fuzz account: a ready issuer, an authorized note, a webhook with a delivery, an application, a notification. */
export async function fuzzContext(t: TestApp): Promise<FuzzContext> {
  const { auth } = await t.newAccount('Fuzz account');
  const issuerId = await readyIssuer(t, auth);
  const ids: Record<string, string[]> = { iss: [issuerId] };
  const post = async (url: string, payload: unknown, headers: Record<string, string> = {}) => {
    const r = await t.app.inject({ method: 'POST', url, headers: { ...auth, ...headers }, payload: payload as object });
    if (r.statusCode >= 300) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };
  const note = await post('/v1/nfce', sale(issuerId), { prefer: 'wait=10' });
  ids.nfce = [note.id];
  await waitForStatus(t, auth, note.id, 'authorized');
  const hook = await post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['nfce.authorized'] }).catch(() => undefined);
  if (hook?.id) {
    ids.whk = [hook.id];
    await post(`/v1/webhooks/${hook.id}/test`, {}).catch(() => undefined);
    const d = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries`, headers: auth });
    ids.dlv = (d.json()?.data ?? []).map((x: { id: string }) => x.id);
  }
  const app = await post('/v1/applications', { name: 'fuzz target', scopes: ['nfce:read'] }).catch(() => undefined);
  if (app?.id) ids.app = [app.id];
  const n = await t.app.inject({ method: 'GET', url: '/v1/notifications', headers: auth });
  ids.ntf = (n.json()?.data ?? []).map((x: { id: string }) => x.id).slice(0, 5);
  return { t, auth, ids, issuerId };
}

// ---------------------------------------------------------------- XML escape check

/** Strings of the request that carried XML metacharacters. */
function metaStrings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string' && /[<&"']/.test(v)) out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => metaStrings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => metaStrings(x, out));
  return out;
}

function unescapeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) =>
    e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'amp' ? '&' : e === 'quot' ? '"' : e === 'apos' ? "'" : String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
  );
}

/**
 * A sale with `<&"'` in its text fields that the gateway accepted: once authorized, its nfeProc is
 * well-formed, has every such text back (escaped in the XML), passes procNFe_v4.00.xsd and xmlsec1.
 */
export async function checkEscapedXml(ctx: FuzzContext, body: unknown, created: { id: string }): Promise<string[]> {
  const note = await waitForStatus(ctx.t, ctx.auth, created.id, 'authorized').catch((e: Error) => ({ status: e.message }));
  if (note.status !== 'authorized') return [];
  const res = await ctx.t.app.inject({ method: 'GET', url: `/v1/nfce/${created.id}/xml`, headers: ctx.auth });
  if (res.statusCode !== 200) return [`GET xml: ${res.statusCode}`];
  const xml = res.body;
  const problems: string[] = [];
  // an account switched to taxRegime reform_2026 (the fuzzer PATCHes /v1/account) emits the IBS/CBS groups of PL_010
  const schema = await xmllint(xml, /<IBSCBS>|<gIBSCBS>/.test(xml) ? 'PL_010_V1.30' : 'PL_009_V4', 'procNFe_v4.00.xsd');
  if (schema) problems.push(`xmllint: ${schema.slice(0, 300)}`);
  const sig = await xmlsecVerify(xml);
  if (sig) problems.push(`xmlsec1: ${sig.slice(0, 300)}`);
  // every text node, unescaped: the sent strings must be found as they were (trimmed, whitespace
  // collapsed as the layout does), i.e. they were escaped, not dropped or double-escaped.
  const texts = [...xml.matchAll(/>([^<]*)</g)].map((m) => unescapeXml(m[1]!));
  const joined = texts.join('\u0001');
  for (const s of metaStrings(body)) {
    if (/&(amp|lt|gt|quot|apos|#\d+);/.test(s)) continue;
    const norm = s.trim().replace(/\s+/g, ' ');
    if (norm && !joined.includes(norm) && texts.some((x) => x.includes('&amp;') || x.includes('&lt;'))) problems.push(`double-escaped text for ${JSON.stringify(norm)}`);
  }
  if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(xml)) problems.push('a bare & in the XML');
  return problems;
}

/** A valid sale whose every free-text field carries `<&"'`. */
export function metacharSale(issuerId: string, seed: string) {
  const s = sale(issuerId, { additional_info: `Obs ${META} ${seed}` }) as any;
  s.external_ref = `ord-${seed}-${META}`;
  s.items[1].description = `Pao ${META} frances ${seed}`;
  s.items[1].code = `SKU&<${seed}>`;
  return s;
}
