import type { Db } from '../../src/infra/storage/db.js';
import { newId } from '../../src/kernel/ids.js';
import { openDb } from '../../src/infra/storage/db.js';
import { withDatabase } from './db-names.js';
import pg from 'pg';

// The database of the test file running now. On a PostgreSQL server (TEST_DATABASE_URL) each file gets
// a database of its own, copied from the run's migrated template (global-setup-databases.ts) when the
// file first asks for it and dropped when the file ends (per-file-db.ts, a setup file of every vitest
// project): no file sees another's rows, breakers or counters. On PGlite (no server: a user's fresh
// machine) one instance per worker process is shared by the files it runs, since an instance costs
// seconds and hundreds of MB.
interface FileDb {
  db: Promise<Db>;
  /** Where another handle on the same data connects (null on PGlite: share `db` itself). */
  url: string | null;
  name: string | null;
  /** Closed when the file ends, last first: what lives on the file's database (its simulator). */
  closers: (() => Promise<void>)[];
}

let current: FileDb | undefined;
let sharedPglite: Promise<Db> | undefined;
let files = 0;

function templateName(): string | undefined {
  return process.env.TEST_DATABASE_URL ? process.env.TEST_TEMPLATE_DATABASE : undefined;
}

async function copyTemplate(url: string, template: string, name: string): Promise<Db> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  return openDb({ databaseUrl: withDatabase(url, name), poolSize: 20 });
}

function fileDb(): FileDb {
  if (current) return current;
  const url = process.env.TEST_DATABASE_URL;
  const template = templateName();
  if (url && template) {
    // fgt_<run pid>_tpl -> fgt_<run pid>_w<worker pid>_<n>
    const name = `${template.slice(0, -'tpl'.length)}w${process.pid}_${files++}`;
    current = { db: copyTemplate(url, template, name), url: withDatabase(url, name), name, closers: [] };
  } else {
    sharedPglite ??= openDb({ databaseUrl: url, poolSize: 20, schema: url ? `t_${process.pid}_${Date.now().toString(36)}` : undefined }).then((db) => {
      process.once('beforeExit', () => void db.close());
      return db;
    });
    current = { db: sharedPglite, url: null, name: null, closers: [] };
  }
  return current;
}

export function getTestDb(): Promise<Db> {
  return fileDb().db;
}

/** Where a second handle on the file's database connects: `{url, schema}` for openDb, or null on PGlite. */
export async function testDatabase(): Promise<{ databaseUrl: string } | null> {
  const f = fileDb();
  await f.db;
  return f.url ? { databaseUrl: f.url } : null;
}

/** Runs `close` when the file ends, before its database is dropped (what the file's database holds up). */
export function onFileEnd(close: () => Promise<void>): void {
  fileDb().closers.push(close);
}

/** The end of a test file (per-file-db.ts): its closers, then its own database closed and dropped. */
export async function endFile(): Promise<void> {
  const f = current;
  current = undefined;
  if (!f) return;
  for (const close of f.closers.reverse()) await close();
  if (!f.name) return;
  const db = await f.db;
  await db.close();
  if (process.env.KEEP_TEST_SCHEMAS === '1') return;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${f.name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** An issuer row of the sandbox account with nothing else (storage tests of numbering and notes). */
export async function insertBareIssuer(db: Db, name: string): Promise<string> {
  const id = newId('iss');
  const now = new Date();
  await db.query(
    `INSERT INTO issuers (id, account_id, cnpj, razao_social, ie, uf, ambiente, regime_tributario, created_at, updated_at)
     VALUES ($1, 'acc_sandbox', $2, $3, '110042490114', 'SP', 'homologacao', 'simples', $4, $4)`,
    [id, id.slice(-14), name, now],
  );
  return id;
}
