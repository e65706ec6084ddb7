// The HTTP side of the NFS-e API on the simulator's server: the caller from its client certificate,
// the bounded body, the transport scenarios (docs/decisions.md#the-authority-simulator) and the JSON answer. authority-simulator.ts
// hands over every request whose path starts with /SefinNacional/ or /contribuintes/.
import { X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { certificateInfo } from '../../fiscal/certificate/certificate-info.js';
import type { NfseScenario } from './nfse-scenario.js';
import type { JsonReply, NfseCaller, NfseSimContext } from './nfse-context.js';
import { routeNfse } from './nfse-router.js';

export const isNfsePath = (path: string): boolean => path.startsWith('/SefinNacional/') || path.startsWith('/contribuintes/');

export interface NfseServeDeps {
  ctx: NfseSimContext;
  scenario: NfseScenario | null;
  /** The body as UTF-8, or null past the simulator's request bound (the rest drained). */
  readBody(req: IncomingMessage): Promise<string | null>;
  /** Keeps a socket unanswered until the simulator closes (timeout scenario). */
  hold(socket: Socket): void;
}

/** The client certificate's name and CNPJ/CPF (ICP-Brasil CN is "NAME:CNPJ"). */
export function callerOf(socket: Socket): NfseCaller {
  const raw = (socket as TLSSocket).getPeerCertificate?.()?.raw;
  if (!raw) return { name: 'PRESTADOR', taxId: null };
  const info = certificateInfo(raw, new X509Certificate(raw));
  const name = info.commonName.replace(/:[0-9]{11,14}$/, '').trim().slice(0, 300);
  return { name: name || 'PRESTADOR', taxId: info.cnpj ?? info.cpf };
}

export async function serveNfse(req: IncomingMessage, res: ServerResponse, deps: NfseServeDeps): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'POST') req.resume();
  const body = method === 'POST' ? await deps.readBody(req) : '';
  const { scenario } = deps;
  if (body === null) return send(res, { status: 413, body: { mensagem: 'request too large' } });
  if (scenario?.kind === 'throttle') {
    // docs/fiscal/nfse-national.md#hosts-and-transport: 429 with Retry-After (seconds); nothing is processed.
    return send(res, { status: 429, headers: { 'retry-after': String(scenario.retryAfterSeconds) } });
  }
  if (scenario?.kind === 'timeout') return deps.hold(req.socket);
  if (scenario?.kind === 'http-500') return send(res, { status: 500, body: { mensagem: 'Internal server error (simulated)' } });
  if (scenario?.kind === 'malformed') {
    res.writeHead(200, { 'content-type': 'text/html' }).end('Service Unavailable <html><body>proxy error');
    return;
  }
  let answer: JsonReply;
  try {
    answer = await routeNfse({ method, url: new URL(req.url ?? '/', 'https://sim.invalid'), body }, deps.ctx, callerOf(req.socket), {
      refuseProfile: scenario?.kind === 'refuse-profile' ? scenario.profile : undefined,
      rejectCode: scenario?.kind === 'reject-nfse' ? scenario.code : undefined,
    });
  } catch (err) {
    answer = { status: 500, body: { mensagem: `simulator failure: ${(err as Error).message}` } };
  }
  // Processed and stored; the answer never reaches the client.
  if (scenario?.kind === 'lost-response') return void req.socket.destroy();
  send(res, answer, method === 'HEAD');
}

function send(res: ServerResponse, answer: JsonReply, head = false): void {
  if (answer.body === undefined || head) {
    res.writeHead(answer.status, { ...answer.headers, 'content-length': 0 }).end();
    return;
  }
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, { ...answer.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
}
