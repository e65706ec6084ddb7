import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on 127.0.0.1 that records every request and answers `status()` (default 200). */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  status: () => number;
  /** Resolves once `count` requests matching `filter` arrived (fails after `ms`, a last guard). */
  waitFor(count: number, filter?: (r: ReceivedWebhook) => boolean, ms?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const receiver: Partial<WebhookReceiver> = { received, status: () => 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = receiver.status!();
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `receiver says ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    async waitFor(count: number, filter: (r: ReceivedWebhook) => boolean = () => true, ms = 20_000) {
      const end = Date.now() + ms;
      for (;;) {
        const got = received.filter(filter);
        if (got.length >= count) return got;
        if (Date.now() > end) throw new Error(`expected ${count} webhooks, got ${got.length}: ${got.map((r) => r.body.slice(0, 80)).join(' | ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as WebhookReceiver;
}

/**
 * Polls `probe` until it returns a truthy value. `ms` is only a last guard against a hang (generous:
 * a loaded machine is slow, and a passing test never waits for it); `what` says what never happened.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | null | false>,
  ms = 20_000,
  what: string | (() => string) = 'condition',
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
