import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Timing } from './outcomes.js';

/** The issuer's A1 certificate as PEM strings, kept in memory only (never written to disk). */
export interface ClientCredentials {
  key: string;
  cert: string;
}

export interface TransportOptions {
  credentials: ClientCredentials;
  /** CA PEMs trusted for the authorities' server chains; undefined = Node's bundled roots. */
  ca?: readonly string[] | undefined;
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** Concurrent connections per certificate and host. */
  maxSockets?: number | undefined;
  /** Largest answer body read; a longer one is cut off and reported as an error (undefined: no bound). */
  maxResponseBytes?: number | undefined;
}

export type HttpExchange =
  | { kind: 'response'; status: number; contentType: string | undefined; body: string; timing: Timing; headers?: IncomingHttpHeaders }
  | { kind: 'timeout'; phase: 'connect' | 'response'; inDoubt: boolean; timing: Timing }
  | { kind: 'error'; reason: string; inDoubt: boolean; timing: Timing };

/**
 * Keep-alive connection pools, one https.Agent per client certificate and authority host: a TLS
 * handshake with client authentication costs far more than a SOAP round trip (bench/authority.ts).
 */
export class AgentPool {
  private readonly agents = new Map<string, https.Agent>();

  agentFor(origin: string, opts: TransportOptions): https.Agent {
    const id = createHash('sha256')
      .update(opts.credentials.cert)
      .update('\0')
      .update((opts.ca ?? []).join('\0'))
      .update('\0' + origin)
      .digest('hex');
    let agent = this.agents.get(id);
    if (!agent) {
      agent = new https.Agent({
        keepAlive: true,
        maxSockets: opts.maxSockets ?? 16,
        maxFreeSockets: opts.maxSockets ?? 16,
        scheduling: 'lifo',
        key: opts.credentials.key,
        cert: opts.credentials.cert,
        ...(opts.ca ? { ca: [...opts.ca] } : {}),
        // NT 2025.001 v1.02 (docs/fiscal/sefaz-services.md): TLS 1.2 or later.
        minVersion: 'TLSv1.2',
      });
      this.agents.set(id, agent);
    }
    return agent;
  }

  /** Closes every pooled connection (process shutdown, certificate replaced). */
  destroy(): void {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }

  get size(): number {
    return this.agents.size;
  }
}

function timingSince(sentAt: Date): Timing {
  const receivedAt = new Date();
  return { sentAt, receivedAt, elapsedMs: receivedAt.getTime() - sentAt.getTime() };
}

/** One POST over mutual TLS. Never throws for network conditions: they come back as values. */
export function postOverMutualTls(
  pool: AgentPool,
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: TransportOptions,
): Promise<HttpExchange> {
  return requestOverMutualTls(pool, 'POST', url, body, headers, opts);
}

/**
 * One request over mutual TLS (the answer's headers included: Retry-After). Never throws for network
 * conditions: they come back as values. `inDoubt` says the whole request left, whatever its method;
 * whether that matters (a POST that creates something) is the caller's to judge.
 */
export function requestOverMutualTls(
  pool: AgentPool,
  method: 'GET' | 'HEAD' | 'POST',
  url: string,
  body: string | undefined,
  headers: Record<string, string>,
  opts: TransportOptions,
): Promise<HttpExchange> {
  const target = new URL(url);
  const sentAt = new Date();
  const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
  const maxBytes = opts.maxResponseBytes ?? Infinity;
  return new Promise<HttpExchange>((resolve) => {
    let settled = false;
    let written = false;
    let connectTimer: NodeJS.Timeout | undefined;
    let responseTimer: NodeJS.Timeout | undefined;
    const finish = (outcome: HttpExchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(responseTimer);
      resolve(outcome);
    };
    const req = https.request(
      target,
      {
        method,
        agent: pool.agentFor(target.origin, opts),
        headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (c: Buffer) => {
          received += c.length;
          if (received > maxBytes) {
            // Stop reading: the socket goes (its remaining bytes would poison the keep-alive pool).
            finish({ kind: 'error', reason: `answer larger than ${maxBytes} bytes`, inDoubt: true, timing: timingSince(sentAt) });
            req.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('end', () =>
          finish({
            kind: 'response',
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
            timing: timingSince(sentAt),
            headers: res.headers,
          }),
        );
        res.on('error', (err) => finish({ kind: 'error', reason: err.message, inDoubt: true, timing: timingSince(sentAt) }));
      },
    );
    req.on('socket', (socket) => {
      // A pooled socket is already connected; only a fresh one gets the connect (TCP + TLS) budget.
      if (req.reusedSocket || !(socket as TLSSocket).connecting) return;
      connectTimer = setTimeout(() => {
        finish({ kind: 'timeout', phase: 'connect', inDoubt: false, timing: timingSince(sentAt) });
        req.destroy();
      }, opts.connectTimeoutMs);
      socket.once('secureConnect', () => clearTimeout(connectTimer));
    });
    req.on('finish', () => {
      written = true;
      // The response budget starts once the whole request has left: from here on the outcome is in doubt.
      responseTimer = setTimeout(() => {
        finish({ kind: 'timeout', phase: 'response', inDoubt: true, timing: timingSince(sentAt) });
        req.destroy();
      }, opts.responseTimeoutMs);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // Once the body left, the authority may have processed it even if the answer never came back.
      finish({ kind: 'error', reason: err.code ?? err.message, inDoubt: written, timing: timingSince(sentAt) });
    });
    req.end(payload);
  });
}
