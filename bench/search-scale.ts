// The API with many notes in the database: one account with N authorized NFC-e and
// the noise of 100 other accounts (N notes among them), loaded straight through the storage layer
// (INSERT ... SELECT in batches of 10,000 on the runtime's Db, each writing its search_documents rows with
// the functions migration 0021's triggers call, in the same transaction), then, over real HTTP against the gateway in this process (API + worker + the
// simulated SEFAZ):
//   POST /v1/nfce (the 202 answer), GET /v1/nfce/:id, GET /v1/nfce with filters (issuer_id, status,
//   created_at[gte]), and GET /v1/search: a word pair, a punctuated CNPJ, an access key, a misspelt name.
// Each figure: BENCH_SAMPLES (200) sequential requests, p50 and p99, after ANALYZE. Sizes grow in one
// run: BENCH_SIZES (1000,100000; add 1000000 if there is time) notes of the measured account.
// Loaded notes carry request, items and identifiers like a real sale but no XML (signed_xml empty,
// proc_xml null): the database size is rows and indexes, not the XML a real note would add.
// PostgreSQL only: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), its own
// schema, dropped afterwards (kept with BENCH_KEEP_SCHEMA=1, to EXPLAIN its queries; BENCH_SCHEMA=<kept schema> measures it again
// without loading). The ratio: RSA-2048 signatures per second measured in the same run.
import { randomBytes, randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createAccount } from '../src/cli/create-account.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/kernel/ids.js';
import { generateApiKey, hashApiKey, keyPrefix } from '../src/infra/identity/api-key.js';
import { insertApplication } from '../src/infra/storage/repositories/application-repository.js';
import type { Db } from '../src/infra/storage/db.js';
import { startRuntime } from '../src/runtime.js';
import { generateTestPfx } from '../test/support/generate-certificate.js';
import { freshBranchCnpj, sale, SP_ISSUER, TEST_CSC } from '../test/support/nfce-flow.js';
import { createSchema, dropSchema, withSearchPath } from './support/cluster.js';
import { pct, rsaSignaturesPerSecond } from './support/yardstick.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const NOISE_ACCOUNTS = Number(process.env.BENCH_NOISE_ACCOUNTS ?? 100);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 10_000;
// Measure again, without loading, the notes an earlier run kept (BENCH_KEEP_SCHEMA printed its schema).
const REUSE = process.env.BENCH_SCHEMA;

// Words and names the loaded notes are made of: each word is in ~1/25 of the items, each surname in
// ~1/30 of the consumers, as a bakery's catalogue and clientele would repeat them; chosen by a
// multiplicative hash of the note's number, so each is spread over the 300 days before today that
// the notes span (an earlier version tied surnames to dates: one surname's notes all fell in a few weeks).
// Notes are dated in the order of their numbers, evenly over those 300 days up to today for the
// largest size, so the table holds them in the order they were written, as a real account's
// (an earlier version scattered each day's notes over the whole table).
const WORDS = ['Pão', 'Francês', 'Café', 'Torrado', 'Leite', 'Integral', 'Queijo', 'Minas', 'Presunto', 'Bolo', 'Chocolate', 'Cenoura',
  'Biscoito', 'Amanteigado', 'Suco', 'Laranja', 'Manteiga', 'Açúcar', 'Refinado', 'Farinha', 'Trigo', 'Rosquinha', 'Côco', 'Goiabada', 'Cascão'];
const FIRST = ['Maria', 'José', 'Ana', 'João', 'Antônio', 'Francisca', 'Carlos', 'Paulo', 'Pedro', 'Lucas', 'Luíza', 'Márcia', 'Raimundo', 'Sebastião', 'Juliana'];
const LAST = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa', 'Ribeiro', 'Martins', 'Carvalho',
  'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa', 'Rocha', 'Dias', 'Nascimento', 'Andrade', 'Moreira', 'Nunes', 'Marques', 'Machado', 'Mendes', 'Bittencourt'];

/**
 * `count` authorized notes of `issuerId`, numbered from `from` in series `serie` (900 + the account's
 * index, so no real sale's series is touched), made in the database in batches of BATCH. Each batch
 * is one transaction that writes the notes, their search_documents rows and the names' words
 * (search_words) set-based: the row triggers are off for that transaction alone
 * (session_replication_role = replica, superuser) and the same functions they call
 * (search_note_doc, migration 0021) make the same rows, one statement per batch instead of two
 * statements per note (the triggers' way loaded ~600-870 notes/s here, an hour for 2 million).
 */
async function loadNotes(db: Db, accountId: string, issuerId: string, accountIndex: number, from: number, count: number, total: number): Promise<void> {
  for (let start = from; start < from + count; start += BATCH) {
    const end = Math.min(from + count, start + BATCH) - 1;
    await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL session_replication_role = replica`, []);
      await tx.query(
        `WITH ins AS (
         INSERT INTO notes (id, account_id, issuer_id, external_ref, status, model, serie, number, access_key, tp_amb, tp_emis, dh_emi,
           schema_package, request, totals, items, signed_xml, digest_value, qrcode_url, url_chave, protocolo, authorized_at, created_at, updated_at)
         SELECT 'nfce_b' || $3::int || '_' || g, $1, $2, 'order-' || $3::int || '-' || g, 'authorized', 65, 900 + $3::int, g,
           '35261106157250' || lpad($3::int::text, 4, '0') || '65' || lpad(g::text, 24, '0'), 2, 1, '2026-11-26T10:00:00-03:00', 'PL_009_V4',
           jsonb_build_object('issuer_id', $2::text, 'external_ref', 'order-' || $3::int || '-' || g,
             'items', jsonb_build_array(jsonb_build_object('description', w.a || ' ' || w.b), jsonb_build_object('description', w.c)),
             'consumer', jsonb_build_object('cpf', lpad((g::bigint * 7919 % 99999999999)::text, 11, '0'), 'name', c.first || ' ' || c.last)),
           '{"vNF": 10}'::jsonb, '[]'::jsonb, '', 'digest', 'https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode', 'https://www.nfce.fazenda.sp.gov.br/consulta',
           '135' || lpad(($3::int * 10000000 + g)::text, 12, '0'), ts, ts, ts
           FROM generate_series($4::int, $5::int) AS g,
           LATERAL (SELECT (g::bigint * 2654435761) % 4294967296 AS h) x,
           LATERAL (SELECT ($6::text[])[1 + x.h % 25] AS a, ($6::text[])[1 + (x.h / 25) % 25] AS b, ($6::text[])[1 + (x.h / 625) % 25] AS c) w,
           LATERAL (SELECT ($7::text[])[1 + (x.h / 15625) % 15] AS first, ($8::text[])[1 + (x.h / 234375) % 30] AS last) c,
           LATERAL (SELECT date_trunc('day', now()) - ($9::int - g + 1) * (25920000.0 / $9::int) * interval '1 second' AS ts) t
         RETURNING *),
       docs AS (
         INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at)
         SELECT d.* FROM ins CROSS JOIN LATERAL search_note_doc(ROW(ins.*)::notes) d
         RETURNING account_id, names)
       INSERT INTO search_words (account_id, word)
       SELECT DISTINCT docs.account_id, w FROM docs, regexp_split_to_table(docs.names, '[^a-z0-9]+') AS w WHERE length(w) >= 3 ORDER BY 1, 2
       ON CONFLICT DO NOTHING`,
        [accountId, issuerId, accountIndex, start, end, WORDS, FIRST, LAST, total],
      );
    });
  }
}

async function main(): Promise<void> {
  const schema = REUSE ?? `bench_search_${Date.now().toString(36)}`;
  if (!REUSE) await createSchema(PG_URL, schema);
  const config = loadConfig({
    GATEWAY_ENV: 'sandbox',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SIM_LATENCY_MS: '0',
    LOG_LEVEL: 'silent',
    DATA_DIR: `/tmp/fg-bench-${randomBytes(4).toString('hex')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    DATABASE_URL: withSearchPath(PG_URL, schema),
  });
  const runtime = await startRuntime(config);
  const app = runtime.app!;
  const db = runtime.ctx.db;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    let accountId: string;
    let key: string;
    let issuerId: string;
    let cnpj: string;
    const noise: Array<{ accountId: string; issuerId: string }> = [];
    if (REUSE) {
      // The notes loaded by an earlier run: a new key of its account, its issuer's certificate and
      // CSC uploaded again (the earlier run's master key is gone with it).
      accountId = (await db.query<{ id: string }>(`SELECT id FROM accounts WHERE name = 'bench'`)).rows[0]!.id;
      key = generateApiKey(config.env);
      await insertApplication(db, { id: newId('app'), accountId, name: 'bench again', scopes: ['*'], keyHash: hashApiKey(key), keyPrefix: keyPrefix(key) });
      ({ id: issuerId, cnpj } = (await db.query<{ id: string; cnpj: string }>('SELECT id, cnpj FROM issuers WHERE account_id = $1', [accountId])).rows[0]!);
    } else {
      ({ accountId, key } = await createAccount(db, config, 'bench'));
      cnpj = freshBranchCnpj();
      const issuer = await app.inject({ method: 'POST', url: '/v1/issuers', headers: { authorization: `Bearer ${key}` }, payload: { ...SP_ISSUER, cnpj, contingency: { mode: 'off' } } });
      issuerId = issuer.json().id as string;
      // The noise: 100 accounts with an issuer each (same words, same names, other keys and CNPJs).
      for (let i = 1; i <= NOISE_ACCOUNTS; i++) {
        const other = await createAccount(db, config, `noise ${i}`);
        const id = newId('iss');
        await db.query(
          `INSERT INTO issuers (id, account_id, cnpj, razao_social, nome_fantasia, ie, uf, ambiente, regime_tributario, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, '111111111111', 'SP', 'homologacao', 'simples', now(), now())`,
          [id, other.accountId, freshBranchCnpj(), `Padaria Ruído ${i} Ltda`, `Padaria Ruído ${i}`],
        );
        noise.push({ accountId: other.accountId, issuerId: id });
      }
    }
    const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const boundary = 'bench' + randomBytes(6).toString('hex');
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\nbench-password\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pfx"; filename="a1.pfx"\r\nContent-Type: application/x-pkcs12\r\n\r\n`),
      generateTestPfx(cnpj, 'bench-password'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const cert = await app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/certificate`, headers: { ...h, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: multipart });
    if (cert.statusCode !== 201) throw new Error(`certificate upload: ${cert.body}`);
    await app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/csc`, headers: h, payload: TEST_CSC });

    const post = async (path: string, body?: unknown) => {
      const started = performance.now();
      const res = await fetch(base + path, body === undefined ? { headers: h } : { method: 'POST', headers: h, body: JSON.stringify(body) });
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
      return { ms, json: JSON.parse(text) as { id?: string; data?: Array<{ id: string }> } };
    };
    const measure = async (fn: (i: number) => Promise<number>) => {
      const ms: number[] = [];
      for (let i = 0; i < SAMPLES; i++) ms.push(await fn(i));
      ms.sort((a, b) => a - b);
      return { p50: +pct(ms, 50).toFixed(1), p99: +pct(ms, 99).toFixed(1) };
    };
    // Warm-up: schemas compiled, TLS to the simulator open, statements prepared.
    for (let i = 0; i < 10; i++) await post('/v1/nfce', sale(issuerId));

    const punctuated = cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
    const keyOf = (g: number) => `35261106157250${'0000'}65${String(g).padStart(24, '0')}`;
    const rows: Array<Record<string, unknown>> = [];
    let loaded = 0;
    let noiseLoaded = 0;
    if (REUSE) {
      loaded = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notes WHERE account_id = $1 AND serie = 900`, [accountId])).rows[0]!.n;
      noiseLoaded = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notes WHERE account_id <> $1 AND serie > 900`, [accountId])).rows[0]!.n;
    }
    for (const size of REUSE ? [loaded] : SIZES) {
      const loadStart = performance.now();
      const perNoise = Math.ceil((size - loaded) / NOISE_ACCOUNTS);
      // Two lanes, one per core: the account's notes and the others' (never one account in both, so
      // two batches never wait on each other's new search_words).
      await Promise.all([
        loadNotes(db, accountId, issuerId, 0, loaded + 1, size - loaded, Math.max(...SIZES)),
        (async () => {
          for (const [i, n] of noise.entries()) await loadNotes(db, n.accountId, n.issuerId, i + 1, Math.floor(loaded / NOISE_ACCOUNTS) + 1, perNoise, Math.ceil(Math.max(...SIZES) / NOISE_ACCOUNTS));
        })(),
      ]);
      const loadSeconds = (performance.now() - loadStart) / 1000;
      const added = size - loaded + perNoise * NOISE_ACCOUNTS;
      noiseLoaded += perNoise * NOISE_ACCOUNTS;
      loaded = size;
      await db.exec('ANALYZE notes; ANALYZE search_documents; ANALYZE issuers; ANALYZE note_history');
      const sizes = (await db.query<{ total: string; search: string; notes: string }>(
        `SELECT (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r')::text AS total,
                pg_total_relation_size('search_documents')::text AS search, pg_total_relation_size('notes')::text AS notes`,
      )).rows[0]!;
      const docs = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM search_documents')).rows[0]!.n;

      const postFigure = await measure(async () => (await post('/v1/nfce', sale(issuerId))).ms);
      const getFigure = await measure(async () => (await post(`/v1/nfce/nfce_b0_${randomInt(1, size + 1)}`)).ms);
      const listFigure = await measure(async (i) => (await post(`/v1/nfce?issuer_id=${issuerId}&status=authorized&created_at%5Bgte%5D=2026-0${1 + (i % 9)}-01T00:00:00Z&limit=20`)).ms);
      const search = (q: string) => post(`/v1/search?q=${encodeURIComponent(q)}&limit=20`);
      const word = await measure(async (i) => (await search(`${WORDS[i % 25]} ${WORDS[(i * 7 + 3) % 25]}`)).ms);
      const byCnpj = await measure(async () => {
        const r = await search(punctuated);
        if (r.json.data?.[0]?.id !== issuerId) throw new Error(`CNPJ search did not put the issuer first: ${JSON.stringify(r.json).slice(0, 300)}`);
        return r.ms;
      });
      const byKey = await measure(async () => {
        const g = randomInt(1, size + 1);
        const r = await search(keyOf(g));
        if (r.json.data?.[0]?.id !== `nfce_b0_${g}`) throw new Error(`key search did not put nfce_b0_${g} first: ${JSON.stringify(r.json).slice(0, 300)}`);
        return r.ms;
      });
      const typo = await measure(async (i) => (await search(['Bitencourt', 'Olivera', 'Nacimento', 'Fereira', 'Carvalo'][i % 5]!)).ms);
      const row = {
        notes_of_account: size,
        noise_notes: noiseLoaded,
        search_documents: docs,
        load_rows_per_second: REUSE ? null : Math.round(added / loadSeconds),
        database_mb: Math.round(Number(sizes.total) / 1048576),
        search_documents_mb: Math.round(Number(sizes.search) / 1048576),
        notes_mb: Math.round(Number(sizes.notes) / 1048576),
        post_nfce_ms: postFigure,
        get_nfce_ms: getFigure,
        list_filtered_ms: listFigure,
        search_word_ms: word,
        search_cnpj_ms: byCnpj,
        search_access_key_ms: byKey,
        search_typo_ms: typo,
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
    const rsa = rsaSignaturesPerSecond();
    const last = rows.at(-1)! as { search_word_ms: { p99: number }; search_typo_ms: { p99: number } };
    console.log(JSON.stringify({
      samples: SAMPLES,
      noise_accounts: NOISE_ACCOUNTS,
      rsa2048_signatures_per_second: Math.round(rsa),
      largest_search_word_p99_over_rsa_signature_ms: +(last.search_word_ms.p99 / (1000 / rsa)).toFixed(1),
      largest_search_typo_p99_over_rsa_signature_ms: +(last.search_typo_ms.p99 / (1000 / rsa)).toFixed(1),
    }, null, 2));
  } finally {
    await runtime.close();
    if (process.env.BENCH_KEEP_SCHEMA || REUSE) console.log(`schema kept: ${schema}`);
    else await dropSchema(PG_URL, schema);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
