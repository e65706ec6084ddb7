// Names of the test databases on a PostgreSQL server (test/support/db.ts, global-setup-databases.ts):
// fgt_<pid of the vitest run>_..., so a run can tell its own from those of a run beside it.

/** The prefix of every database of the run whose main process is `runPid`. */
export const fileDatabasePrefix = (runPid: number) => `fgt_${runPid}_`;

/** The run's migrated template, copied for each test file. */
export const templateDatabaseName = (runPid: number) => `${fileDatabasePrefix(runPid)}tpl`;

/** The connection string `url` pointed at another database of the same server. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
