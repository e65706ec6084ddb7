import { randomInt } from 'node:crypto';
import { sleep, type Cluster, type Gateway } from './cluster.js';

/** A gateway process that is running (not killed, not exited). */
export const isUp = (g: Gateway) => g.proc !== undefined && g.proc.exitCode === null && g.proc.signalCode === null;

export interface KillerRun {
  /** Kills so far, in all and per role. */
  readonly kills: number;
  readonly byRole: { api: number; worker: number; all: number };
  /** The clients are done: stop once `target` kills were made. */
  clientsDone(): void;
  /** Settles when the killer stopped and every killed process is running again. */
  readonly done: Promise<void>;
}

/**
 * The chaos runs' killer (bench:chaos, bench:chaos-contingency): SIGKILL a random running API or worker
 * process, roles in turn, after a pause of `pauseMs()`; each is restarted in the background, so the next
 * kill may come while it is still starting. One API always stays up. Runs until at least `target` kills
 * were made and the clients are done, or until `stopAt` (epoch ms).
 */
export function startKiller(c: Cluster, o: { target: number; pauseMs: () => number; stopAt: number }): KillerRun {
  const byRole = { api: 0, worker: 0, all: 0 };
  const restarting = new Set<Gateway>();
  const restarts: Promise<void>[] = [];
  let kills = 0;
  let clientsDone = false;
  const restart = async (g: Gateway) => {
    for (let tries = 0; ; tries++) {
      try {
        await c.start(g);
        break;
      } catch (err) {
        if (tries >= 3) throw err;
      }
    }
    restarting.delete(g);
  };
  const run = async () => {
    while ((kills < o.target || !clientsDone) && Date.now() < o.stopAt) {
      await sleep(o.pauseMs());
      const role = kills % 2 === 0 ? 'api' : 'worker';
      const pool = c.gateways.filter((g) => g.role === role && !restarting.has(g) && isUp(g));
      if ((role === 'api' && pool.length < 2) || pool.length === 0) continue;
      const victim = pool[randomInt(0, pool.length)]!;
      restarting.add(victim);
      await c.kill(victim);
      kills++;
      byRole[victim.role]++;
      restarts.push(restart(victim));
      if (clientsDone && kills >= o.target) break;
    }
    await Promise.all(restarts);
  };
  const done = run();
  return {
    get kills() {
      return kills;
    },
    byRole,
    clientsDone: () => void (clientsDone = true),
    done,
  };
}
