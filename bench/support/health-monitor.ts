// Asks each gateway's /healthz every few tens of milliseconds over a connection of its own (kept
// alive, opened before any attack, so a per-IP connection cap or a flood never queues it) and keeps
// the slowest answer per phase: the hostile suite's proof that one tenant's request never holds the
// event loop for everybody.
import { Agent, request } from 'node:http';

export interface HealthSample {
  /** Slowest /healthz answer in the phase, ms; Infinity when one failed or timed out. */
  maxMs: number;
  probes: number;
  failures: string[];
}

interface Target {
  name: string;
  base: string;
  agent: Agent;
}

export class HealthMonitor {
  private readonly targets: Target[];
  private running = false;
  private loops: Promise<void>[] = [];
  private phase: Map<string, HealthSample> = new Map();

  constructor(
    gateways: { name: string; base: string }[],
    private readonly everyMs = 25,
    private readonly timeoutMs = 5_000,
  ) {
    this.targets = gateways.map((g) => ({ ...g, agent: new Agent({ keepAlive: true, maxSockets: 1 }) }));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = this.targets.map((t) => this.loop(t));
  }

  /** Starts a new phase and returns the one that ended (slowest answer per gateway). */
  cut(): Map<string, HealthSample> {
    const ended = this.phase;
    this.phase = new Map();
    return ended;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    for (const t of this.targets) t.agent.destroy();
  }

  private async loop(t: Target): Promise<void> {
    while (this.running) {
      const started = performance.now();
      const failure = await probe(t, this.timeoutMs);
      const ms = performance.now() - started;
      const s = this.phase.get(t.name) ?? { maxMs: 0, probes: 0, failures: [] };
      s.probes++;
      if (failure) {
        s.maxMs = Infinity;
        if (s.failures.length < 5) s.failures.push(failure);
      } else s.maxMs = Math.max(s.maxMs, ms);
      this.phase.set(t.name, s);
      const rest = this.everyMs - ms;
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
    }
  }
}

function probe(t: Target, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const req = request(`${t.base}/healthz`, { agent: t.agent, timeout: timeoutMs }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode === 200 ? null : `status ${res.statusCode}`));
      res.once('error', (err) => resolve(err.message));
    });
    req.once('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.once('error', (err) => resolve(err.message));
    req.end();
  });
}
