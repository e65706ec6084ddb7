import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedTarget } from './url-guard.js';

export interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  /** First ~1 KB of the answer body (the delivery log shows it). */
  excerpt: string | null;
  error: string | null;
}

const EXCERPT_BYTES = 1024;

/**
 * POSTs one webhook to the address the SSRF guard checked (the socket never resolves the name again,
 * so a DNS answer that changes between check and connect cannot redirect it). TLS still verifies the
 * certificate for the URL's host name. Redirects are not followed.
 */
export function postWebhook(target: ResolvedTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> {
  const started = performance.now();
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: Math.round(performance.now() - started) });
    };
    const req = client.request(
      target.url,
      {
        method: 'POST',
        agent: false,
        lookup: pinned,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'fiscal-gateway-webhooks/1', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) res.destroy(); // enough for the log; do not download more
        });
        const done = () =>
          finish({ statusCode: res.statusCode ?? null, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'), error: null });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (err) => finish({ statusCode: null, excerpt: null, error: err.message.slice(0, 300) }));
    req.end(body);
  });
}
