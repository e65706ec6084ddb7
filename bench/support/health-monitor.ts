// Asks each gateway's /healthz every few tens of milliseconds over a connection of its own (kept
// alive, opened before any attack, so a per-IP connection cap or a flood never queues it) and keeps
// the slowest answer per phase: the hostile suite's proof that one tenant's request never holds the
// event loop for everybody. The probes run in a worker thread of their own: the suite's main thread
// builds hostile files (RSA keys, 1 MB bodies) and would otherwise delay its own probes and blame
// the gateway for it.
import { Worker } from 'node:worker_threads';

export interface HealthSample {
  /** Slowest /healthz answer in the phase, ms; Infinity when one failed or timed out. */
  maxMs: number;
  probes: number;
  failures: string[];
}

// Plain JavaScript, evaluated in the worker: no TypeScript loader needed there.
const PROBES = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { targets, everyMs, timeoutMs } = workerData;
let phase = new Map();
let running = true;
function probe(base, agent) {
  return new Promise((resolve) => {
    const req = http.request(base + '/healthz', { agent, timeout: timeoutMs }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode === 200 ? null : 'status ' + res.statusCode));
      res.once('error', (err) => resolve(err.message));
    });
    req.once('timeout', () => req.destroy(new Error('no answer within ' + timeoutMs + ' ms')));
    req.once('error', (err) => resolve(err.message));
    req.end();
  });
}
async function loop(t) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (running) {
    const started = performance.now();
    const failure = await probe(t.base, agent);
    const ms = performance.now() - started;
    const s = phase.get(t.name) || { maxMs: 0, probes: 0, failures: [] };
    s.probes++;
    if (failure) {
      s.maxMs = Infinity;
      if (s.failures.length < 5) s.failures.push(failure);
    } else s.maxMs = Math.max(s.maxMs, ms);
    phase.set(t.name, s);
    const rest = everyMs - ms;
    if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  }
  agent.destroy();
}
parentPort.on('message', (m) => {
  if (m === 'cut') {
    parentPort.postMessage({ cut: [...phase].map(([k, v]) => [k, { ...v, maxMs: v.maxMs === Infinity ? -1 : v.maxMs }]) });
    phase = new Map();
  } else if (m === 'stop') running = false;
});
Promise.all(targets.map(loop)).then(() => parentPort.postMessage({ stopped: true }));
`;

export class HealthMonitor {
  private worker: Worker | undefined;

  constructor(
    private readonly gateways: { name: string; base: string }[],
    private readonly everyMs = 25,
    private readonly timeoutMs = 5_000,
  ) {}

  start(): void {
    this.worker ??= new Worker(PROBES, { eval: true, workerData: { targets: this.gateways, everyMs: this.everyMs, timeoutMs: this.timeoutMs } });
  }

  /** Starts a new phase and returns the one that ended (slowest answer per gateway). */
  cut(): Promise<Map<string, HealthSample>> {
    const w = this.worker!;
    return new Promise((resolve) => {
      const onMessage = (m: { cut?: Array<[string, HealthSample]> }) => {
        if (!m.cut) return;
        w.off('message', onMessage);
        resolve(new Map(m.cut.map(([k, v]) => [k, { ...v, maxMs: v.maxMs === -1 ? Infinity : v.maxMs }])));
      };
      w.on('message', onMessage);
      w.postMessage('cut');
    });
  }

  async stop(): Promise<void> {
    const w = this.worker;
    if (!w) return;
    const stopped = new Promise<void>((resolve) => w.on('message', (m: { stopped?: boolean }) => m.stopped && resolve()));
    w.postMessage('stop');
    await Promise.race([stopped, new Promise((r) => setTimeout(r, this.timeoutMs + 1_000))]);
    await w.terminate();
    this.worker = undefined;
  }
}
