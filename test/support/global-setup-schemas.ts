import pg from 'pg';

// Each test worker migrates a schema of its own on the server (test/support/db.ts), named after its
// process id; drop those whose process is gone when a run starts and ends, so the CI database does
// not fill up with old runs and a run never drops the schema of another run still going beside it.
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function dropTestSchemas(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname ~ '^t_[0-9]+_[0-9a-z]+$'`);
    for (const { nspname } of r.rows) {
      if (alive(Number(nspname.split('_')[1]))) continue;
      await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
    }
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
