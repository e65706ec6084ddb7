// CPU time of the parties of a benchmark, read from /proc (Linux): a process by pid, and every
// PostgreSQL server process together. Elsewhere the readings are null and the bench says so.
import { readdirSync, readFileSync } from 'node:fs';

// USER_HZ: /proc reports times in clock ticks, 100 per second on Linux.
const TICK_MS = 10;

function ticksOf(pid: number | string): { comm: string; ms: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5) (utime, stime), counted after the command name.
    return { comm, ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return null;
  }
}

export interface CpuReading {
  byPid: Map<number, number>;
  postgres: number | null;
}

export function readCpu(pids: readonly number[]): CpuReading {
  const byPid = new Map<number, number>();
  for (const pid of pids) {
    const t = ticksOf(pid);
    if (t) byPid.set(pid, t.ms);
  }
  let postgres: number | null = null;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const t = ticksOf(entry);
      if (t?.comm.startsWith('postgres')) postgres = (postgres ?? 0) + t.ms;
    }
  } catch {
    postgres = null;
  }
  return { byPid, postgres };
}

/** CPU milliseconds per unit of work between two readings, per party (null when unreadable). */
export function cpuPerUnit(a: CpuReading, b: CpuReading, pid: number | undefined, units: number): number | null {
  if (pid === undefined) return null;
  const before = a.byPid.get(pid);
  const after = b.byPid.get(pid);
  return before === undefined || after === undefined ? null : +((after - before) / units).toFixed(2);
}

export function postgresPerUnit(a: CpuReading, b: CpuReading, units: number): number | null {
  // Server processes come and go (pool connections): a sum over the survivors still counts the
  // busy backends, which live for the whole run.
  return a.postgres === null || b.postgres === null ? null : +(Math.max(0, b.postgres - a.postgres) / units).toFixed(2);
}

/**
 * CPU milliseconds of the PostgreSQL backends whose application_name is `name`, by pid: the bench's
 * own connections (gateway and simulator), where the server-wide sum above also counts every other
 * session of a shared server. A backend that ends between two readings loses its time (pools keep
 * theirs open during a run); one that starts between them counts from zero.
 */
export async function readBackendCpu(url: string, name: string): Promise<Map<number, number>> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [name]);
    const out = new Map<number, number>();
    for (const { pid } of r.rows) {
      const t = ticksOf(pid);
      if (t) out.set(pid, t.ms);
    }
    return out;
  } finally {
    await c.end();
  }
}

export function backendsPerUnit(a: Map<number, number>, b: Map<number, number>, units: number): number {
  let ms = 0;
  for (const [pid, after] of b) ms += after - (a.get(pid) ?? 0);
  return +(ms / units).toFixed(2);
}
