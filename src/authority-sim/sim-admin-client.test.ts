import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteSimulatorLink, SimulatorAdminError } from './sim-admin-client.js';
import { generateSimulatorIdentity } from './server-certificate.js';

// An answer the gateway cannot parse must reject the call,
// not throw inside the response's 'end' callback, where nothing catches it and the process ends.
const identity = generateSimulatorIdentity();
const server = createServer({ key: identity.keyPem, cert: identity.certPem }, (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('<html>a proxy page, not JSON</html>');
});
let url: string;
beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
beforeAll(() => {
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('remoteSimulatorLink', () => {
  it('rejects a 200 answer that is not JSON with a SimulatorAdminError', async () => {
    const link = remoteSimulatorLink({ url, caPem: identity.caPem, token: 'x'.repeat(20) });
    const call = link.stats();
    await expect(call).rejects.toThrow(SimulatorAdminError);
    await expect(call).rejects.toThrow(/GET \/sim\/admin\/stats: HTTP 200 answer is not JSON/);
  });
});
