// The hostile cases of items 8 and 9, appended to bench/support/hostile-cases.ts: a tenant's
// 750-item receipt (near the largest the authority's 500 KB limit lets through, MOC B01) must not hold the event loop, and a client dripping bytes after its 408 must not keep
// its connection (and its place under MAX_CONNECTIONS_PER_IP) forever.
import { randomInt } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { CLIENT_ERROR_LINGER_MS } from '../../src/http/client-error.js';
import { generateCnf } from '../../src/fiscal/layout/cnf.js';
import { sale } from '../../test/support/nfce-flow.js';
import type { HostileCase } from './hostile-cases.js';
import { rawRequest } from './raw-http.js';
import type { HostileWorld } from './hostile-world.js';

/** ISO 8601 in São Paulo's offset, whole seconds: what a POS in SP prints as dhEmi. */
const spTime = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000 - 3 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '-03:00');

/** A sale of `n` items as a point of sale issued it offline (tpEmis 9, its own series). */
function offlineSale(issuerId: string, n: number) {
  const items = Array.from({ length: n }, (_, i) => ({ description: `Produto hostil ${i + 1}`, quantity: 1, unit_price: 1.5, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '102' }));
  const number = randomInt(1, 100_000);
  const issuedAt = new Date(Date.now() - 10 * 60_000);
  return {
    ...sale(issuerId, { items, payment: { method: 'dinheiro', amount: n * 1.5 } }),
    offline: { serie: 600 + randomInt(0, 280), number, cnf: generateCnf(number), issued_at: spTime(issuedAt), contingency_at: spTime(new Date(issuedAt.getTime() - 5 * 60_000)), reason: 'Sem conexao com a internet no caixa 3' },
  };
}

/** A connection that keeps its side open after the server's FIN, as a slowloris client holds it. */
function halfOpen(port: number): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(null));
  });
}

/** Resolves true once the server closed `socket` entirely, false when it is still open after `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.on('error', () => undefined);
    socket.resume();
  });
}

export const PRINT_AND_DRIP_CASES: HostileCase[] = [
  {
    name: 'receipt: 750-item offline NFC-e, PDF + ESC/POS + HTML at once',
    expected: 'every form 200 (drawn in the worker pool); /healthz within budget meanwhile',
    // Made first, apart: building and checking a 750-item sale is the emission's work, not the printing's.
    async setup(w: HostileWorld) {
      const ip = w.newIp();
      const issuerId = await w.readyIssuer(ip);
      const created = await w.call(w.gateways[0]!, 'POST', '/v1/nfce/offline', { body: offlineSale(issuerId, 750), ip });
      if (created.status !== 201) throw new Error(`offline ${created.status} ${JSON.stringify(created.json).slice(0, 200)}`);
      return { id: created.json.id as string, ip };
    },
    async run(w, _s, ready) {
      const { id, ip } = ready as { id: string; ip: string };
      const forms = ['danfe.pdf', 'danfe.escpos', 'danfe.html', 'danfe.pdf?width=58', 'danfe.escpos?width=58', 'danfe.html?width=58'];
      const started = performance.now();
      const answers = await Promise.all(forms.map((f, i) => w.call(w.gateways[i % w.gateways.length]!, 'GET', `/v1/nfce/${id}/${f}`, { ip })));
      const ms = performance.now() - started;
      const problems = answers.flatMap((a, i) => (a.status === 200 ? [] : [`${forms[i]}: ${a.status} ${JSON.stringify(a.json).slice(0, 120)}`]));
      return { got: `${answers.map((a) => a.status).join('/')} in ${ms.toFixed(0)} ms`, problems };
    },
  },
  {
    name: 'slow body after the 408: half-open clients dripping a byte a second',
    expected: `each destroyed ${CLIENT_ERROR_LINGER_MS / 1000} s after its 408 whatever it sends; then a new client from the same address is served`,
    async run(w, s) {
      const g = w.gateways[0]!;
      const port = w.port(g);
      // As many as the per-address cap allows (the /healthz monitor holds one place already): before
      // the fix they held every place for as long as they dripped, and new clients got 429.
      const sockets = (await Promise.all(Array.from({ length: s.maxConnectionsPerIp }, () => halfOpen(port)))).filter((x): x is Socket => x !== null);
      for (const socket of sockets) socket.write(`POST /v1/nfce HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${w.ownerKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
      const drip = setInterval(() => {
        for (const socket of sockets) if (!socket.destroyed) socket.write(' ');
      }, 1_000);
      const bound = s.requestTimeoutMs + CLIENT_ERROR_LINGER_MS + 5_000;
      const closed = await Promise.all(sockets.map((socket) => closedWithin(socket, bound))).finally(() => clearInterval(drip));
      const open = closed.filter((c) => !c).length;
      // While the dripping clients still hold whatever the server left them: a fresh connection (not one
      // a client library keeps alive) from 127.0.0.1, their own address, must be served.
      const after = await rawRequest(port, `GET /v1/ufs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${w.caseKey}\r\nX-Forwarded-For: ${w.newIp()}\r\nConnection: close\r\n\r\n`);
      for (const socket of sockets) socket.destroy();
      const problems: string[] = [];
      if (open) problems.push(`${open} of ${sockets.length} still open ${bound} ms after they started`);
      if (after.status !== 200) problems.push(`a new client from the same address: ${after.status}`);
      return { got: `${sockets.length - open} of ${sockets.length} closed; next client ${after.status}`, problems };
    },
  },
];
