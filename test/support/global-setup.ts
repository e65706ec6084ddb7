import pg from 'pg';

// Each test worker migrates a schema of its own on the server (test/support/db.ts); drop them all
// when the run ends so the CI database does not fill up with old runs.
async function dropTestSchemas(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname ~ '^t_[0-9]+_[0-9a-z]+$'`);
    for (const { nspname } of r.rows) await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
  } finally {
    await client.end();
  }
}

export async function setup(): Promise<void> {
  await dropTestSchemas();
}

export async function teardown(): Promise<void> {
  // KEEP_TEST_SCHEMAS=1 leaves them for a post-mortem look.
  if (process.env.KEEP_TEST_SCHEMAS !== '1') await dropTestSchemas();
}
