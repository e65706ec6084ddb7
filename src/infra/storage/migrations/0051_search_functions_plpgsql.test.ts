import { describe, expect, it } from 'vitest';
import { getTestDb } from '../../../../test/support/db.js';
import { gatewayMigrations } from './index.js';

// Migration 0051 rewrites the search index's functions in PL/pgSQL: every search document, its tsv
// (a generated column) and its index key (search_scoped, the GIN expression) must come out exactly as
// the SQL bodies of migrations 0021/0026 made them, or the index would hold keys the new function
// never computes. Documents are written by the triggers before the migration, then written again by the
// same triggers after it, and compared field by field; the GIN index must answer as a scan of the
// table does. Run in a schema of its own inside a transaction that is rolled back.
const statements = (sql: string) => sql.split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter(Boolean);

interface DocRow {
  ref_id: string;
  kind: string;
  status: string | null;
  title: string;
  body: string;
  names: string;
  idents: string[];
  tsv: string;
  scoped: string;
}

const DOCS = `SELECT ref_id, kind, status, title, body, names, idents, tsv::text AS tsv, search_scoped(account_id, tsv, created_at)::text AS scoped
                FROM search_documents ORDER BY ref_id`;

// A lexeme over 1,000 bytes is left out of the index key (migration 0026): one such "word" in a sale.
const LONG_WORD = 'x'.repeat(1200);

// `set` 2 writes the same sales for a second issuer (numbers are per issuer), the access keys' last digit 9.
async function writeNotes(tx: { query: (sql: string, params?: unknown[]) => Promise<unknown> }, set: 1 | 2): Promise<void> {
  const issuer = set === 1 ? 'iss_p' : 'iss_q';
  const suffix = set === 1 ? '' : '2';
  const request = (consumer: object | null, description: string) =>
    JSON.stringify({
      items: [
        { description, quantity: 1, unit_price: 10 },
        { description: 'Café torrado 500g', quantity: 2, unit_price: 18.9 },
      ],
      ...(consumer ? { consumer } : {}),
      payment: { method: 'dinheiro', amount: 50 },
    });
  const notes: Array<[string, string, number, string, string, string | null]> = [
    ['nfce_a', 'processing', 12, '3526110615725000011665001000000012123456789', request({ name: 'Joaquina Bittencourt', cpf: '529.982.247-25' }, 'Pão Francês'), null],
    ['nfce_b', 'authorized', 13, '3526110615725000011665001000000013123456789', request(null, `Rosquinhas ${LONG_WORD}`), '135260000000013'],
    ['nfce_c', 'rejected', 14, '3526110615725000011665001000000014123456789', request({ name: 'Élodie Müller', cnpj: '11.222.333/0001-81' }, 'Leite integral 1L'), null],
  ];
  for (const [base, status, number, key43, req, protocolo] of notes) {
    const id = base + suffix;
    await tx.query(
      `INSERT INTO notes (id, account_id, issuer_id, external_ref, status, model, serie, number, access_key, tp_amb, tp_emis, dh_emi, schema_package,
                          request, totals, items, signed_xml, digest_value, created_at, updated_at)
       VALUES ($1, 'acc_p', $2, 'ref-' || $3::int, 'processing', 65, 1, $3::int, $4, 2, 1, '2026-11-28T10:00:00-03:00', 'PL_009',
               $5::jsonb, '{}', '[]', '<NFe/>', 'd', '2026-11-27T13:00:00Z', '2026-11-27T13:00:00Z')`,
      [id, issuer, number, key43 + (set === 1 ? '0' : '9'), req],
    );
    await tx.query(`INSERT INTO note_history (id, note_id, type, at, message) VALUES ('evt_c' || $1, $1, 'created', '2026-11-27T13:00:00Z', 'NFC-e ' || $2 || ' series 1 signed')`, [id, number]);
    if (status === 'processing') continue;
    // The settlement's statement: the note and its history lines at once (note-settlement.ts).
    const rejected = status === 'rejected';
    await tx.query(
      `WITH u AS (UPDATE notes SET status = $2, protocolo = $3, rejection = $4::jsonb, attempts = 1 WHERE id = $1 RETURNING id)
       INSERT INTO note_history (id, note_id, type, at, code, message, protocolo)
       SELECT v.id, u.id, v.type, v.at::timestamptz, v.code, v.message, v.protocolo FROM u CROSS JOIN (VALUES
         ('evt_t' || $1, 'transmitted', '2026-11-27T13:00:01Z', NULL, 'sent to the authority (attempt 1)', NULL),
         ('evt_s' || $1, $2, '2026-11-27T13:00:02Z', $5, $6, $3)) AS v (id, type, at, code, message, protocolo)`,
      [
        id,
        status,
        protocolo,
        rejected ? JSON.stringify({ code: '225', message: 'Rejeição: Falha no Schema XML' }) : null,
        rejected ? '225' : '100',
        rejected ? 'Rejeição: Falha no Schema XML' : 'Autorizado o uso da NF-e',
      ],
    );
  }
}

describe('migration 0051 (search functions in PL/pgSQL)', () => {
  it('writes the same documents, tsv and index keys as the SQL functions did, and the index answers as before', async () => {
    const db = await getTestDb();
    const schema = `probe_0051_${Math.random().toString(36).slice(2, 8)}`;
    const rollback = new Error('rollback');
    const seen = await db
      .transaction(async (tx) => {
        await tx.query(`CREATE SCHEMA ${schema}`);
        await tx.query(`SET LOCAL search_path TO ${schema}`);
        const m0051 = gatewayMigrations.migrations.find((m) => m.id === 51)!;
        for (const m of gatewayMigrations.migrations.filter((m) => m.id < 51)) for (const s of statements(m.sql)) await tx.query(s);
        await tx.query(`INSERT INTO accounts (id, name) VALUES ('acc_p', 'P')`);
        await tx.query(
          `INSERT INTO issuers (id, account_id, cnpj, razao_social, nome_fantasia, ie, uf, ambiente, regime_tributario, created_at, updated_at)
           VALUES ('iss_p', 'acc_p', '06157250000116', 'Padaria São João Ltda', 'Padaria do Zé', '110.042.490.114', 'SP', 'homologacao', 'simples', now(), now())`,
        );
        await tx.query(
          `INSERT INTO issuers (id, account_id, cnpj, razao_social, nome_fantasia, ie, uf, ambiente, regime_tributario, created_at, updated_at)
           VALUES ('iss_q', 'acc_p', '06157250000205', 'Padaria São João Ltda', 'Padaria do Zé', '110.042.490.115', 'SP', 'homologacao', 'simples', now(), now())`,
        );
        await writeNotes(tx, 1);
        const before = (await tx.query<DocRow>(DOCS)).rows;
        const wordsBefore = (await tx.query<{ word: string }>('SELECT word FROM search_words ORDER BY word')).rows;
        const languages = async () =>
          (await tx.query<{ proname: string; lang: string; vol: string }>(
            `SELECT p.proname, l.lanname AS lang, p.provolatile AS vol FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
              WHERE p.pronamespace = $1::regnamespace AND p.proname IN ('search_scoped', 'search_ident_lexemes', 'search_idents', 'search_learn', 'search_label') ORDER BY 1`,
            [schema],
          )).rows;
        const languagesBefore = await languages();

        for (const s of statements(m0051.sql)) await tx.query(s);
        // The same notes written again after the migration, by the same triggers (ids with a suffix).
        await writeNotes(tx, 2);
        const after = (await tx.query<DocRow>(DOCS)).rows;
        // The old documents, their tsv and index keys recomputed by the new functions.
        const recomputed = (await tx.query<{ ref_id: string; tsv: string; scoped: string }>(
          `SELECT ref_id, (search_ident_lexemes(idents) || setweight(to_tsvector('search_pt'::regconfig, title), 'B') || to_tsvector('search_pt'::regconfig, body))::text AS tsv,
                  search_scoped(account_id, tsv, created_at)::text AS scoped
             FROM search_documents WHERE ref_id IN (SELECT unnest($1::text[])) ORDER BY ref_id`,
          [before.map((d) => d.ref_id)],
        )).rows;
        // The index, asked for a word and an identifier prefix, against a scan of the table.
        const asked = async (scan: boolean) => {
          await tx.query(scan ? 'SET LOCAL enable_bitmapscan = off' : 'SET LOCAL enable_seqscan = off');
          if (scan) await tx.query('SET LOCAL enable_indexscan = off');
          const week = Math.floor(Date.parse('2026-11-27T13:00:00Z') / 604_800_000);
          const r = await tx.query<{ ref_id: string }>(
            `SELECT ref_id FROM search_documents WHERE search_scoped(account_id, tsv, created_at) @@ ($1::text || ' | ' || $2::text)::tsquery ORDER BY ref_id`,
            [`'@acc_p/${week}' & '@acc_p/${week}/pao'`, `'@acc_p#3526110615':*`],
          );
          await tx.query('RESET enable_bitmapscan');
          await tx.query('RESET enable_indexscan');
          await tx.query('RESET enable_seqscan');
          return r.rows.map((x) => x.ref_id);
        };
        const byIndex = await asked(false);
        const byScan = await asked(true);
        const wordsAfter = (await tx.query<{ word: string }>('SELECT word FROM search_words ORDER BY word')).rows;
        throw Object.assign(rollback, { out: { before, after, recomputed, byIndex, byScan, wordsBefore, wordsAfter, languagesBefore, languagesAfter: await languages() } });
      })
      .catch((e: Error & { out?: unknown }) => {
        if (e !== rollback) throw e;
        return e.out as {
          before: DocRow[];
          after: DocRow[];
          recomputed: Array<{ ref_id: string; tsv: string; scoped: string }>;
          byIndex: string[];
          byScan: string[];
          wordsBefore: Array<{ word: string }>;
          wordsAfter: Array<{ word: string }>;
          languagesBefore: Array<{ proname: string; lang: string; vol: string }>;
          languagesAfter: Array<{ proname: string; lang: string; vol: string }>;
        };
      });

    // 2 issuers, 3 notes, 1 + 3 + 3 history lines.
    expect(seen.before).toHaveLength(12);
    // The long word is in tsv but not in the index key.
    const b = seen.before.find((d) => d.ref_id === 'nfce_b')!;
    expect(b.tsv).toContain(LONG_WORD);
    expect(b.scoped).not.toContain(LONG_WORD);
    // Written after the migration: the same documents, but for their ids and the access keys' last digit.
    const same = (d: DocRow) => JSON.stringify({ ...d, ref_id: undefined }).replace(/(\d{43})\d/g, '$1?');
    const notesAndEvents = (rows: DocRow[], written: 'old' | 'new') => rows.filter((d) => d.kind !== 'issuer' && d.ref_id.endsWith('2') === (written === 'new'));
    expect(notesAndEvents(seen.after, 'new')).toHaveLength(10);
    expect(notesAndEvents(seen.after, 'new').map(same).sort()).toEqual(notesAndEvents(seen.before, 'old').map(same).sort());
    // The documents written before keep their values, and the new functions compute them exactly.
    expect(seen.after.filter((d) => seen.before.some((x) => x.ref_id === d.ref_id))).toEqual(seen.before);
    expect(seen.recomputed).toEqual(seen.before.map((d) => ({ ref_id: d.ref_id, tsv: d.tsv, scoped: d.scoped })));
    expect(seen.wordsAfter).toEqual(seen.wordsBefore);
    expect(seen.wordsBefore.map((w) => w.word)).toEqual(expect.arrayContaining(['joaquina', 'bittencourt', 'elodie', 'muller', 'padaria']));
    expect(seen.byIndex.length).toBeGreaterThan(0);
    expect(seen.byIndex).toEqual(seen.byScan);
    expect(seen.languagesBefore.map((f) => `${f.proname} ${f.lang}`)).toEqual(['search_ident_lexemes sql', 'search_idents sql', 'search_label sql', 'search_learn sql', 'search_scoped sql']);
    expect(seen.languagesAfter.map((f) => `${f.proname} ${f.lang} ${f.vol}`)).toEqual([
      'search_ident_lexemes plpgsql i',
      'search_idents plpgsql i',
      'search_label sql s',
      'search_learn plpgsql v',
      'search_scoped plpgsql i',
    ]);
  });
});
