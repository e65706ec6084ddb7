// How long this process's event loop was held by its own work, measured so that a machine loaded by other
// work does not count. A 10 ms timer notes, at each of its ticks, the wall time since the last tick and the
// CPU time the main thread (the task whose id is the process id, /proc/self/task/<pid>/stat fields 14 and
// 15, utime and stime in clock ticks) used since then. Synchronous work that holds the loop shows as a
// gap whose CPU time is as long as the gap; a gap in which the process simply was not scheduled (load 16 on
// 2 cores makes 1.8 s ones) has almost no CPU time. Worker threads are other tasks and do not count.
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux architecture Node.js runs on

function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: the fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

export interface LoopStall {
  /** The longest wall time between two ticks (what a request waiting on this process saw). */
  wallMs: number;
  /** The most CPU time the main thread used between two ticks: the longest stretch of its own work. */
  cpuMs: number;
}

/** Starts measuring; the returned function stops and gives the longest stall seen. */
export function watchLoopStall(): () => LoopStall {
  let lastWall = performance.now();
  let lastCpu = mainThreadCpuMs();
  const worst: LoopStall = { wallMs: 0, cpuMs: 0 };
  const tick = () => {
    const wall = performance.now();
    const cpu = mainThreadCpuMs();
    worst.wallMs = Math.max(worst.wallMs, wall - lastWall);
    worst.cpuMs = Math.max(worst.cpuMs, cpu - lastCpu);
    lastWall = wall;
    lastCpu = cpu;
  };
  const timer = setInterval(tick, 10);
  return () => {
    clearInterval(timer);
    tick();
    return { ...worst };
  };
}
