import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestDb } from '../../test/support/db.js';
import { eventually } from '../../test/support/webhook-receiver.js';
import { startAuthoritySimulator, type AuthoritySimulator } from './authority-simulator.js';
import { generateSimulatorIdentity } from './server-certificate.js';

// The simulator runs inside the sandbox gateway; a client
// that drops a SOAP request halfway through its body made the request handler's promise reject with
// nobody listening, which ends the process (API, worker and simulator together).
let sim: AuthoritySimulator;
const client = generateSimulatorIdentity('test client');
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  sim = await startAuthoritySimulator({ db: await getTestDb(), latencyMs: [0, 0], clientAuth: 'any-certificate', cscStorage: 'memory' });
});
afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  await sim.close();
});

/** Sends raw bytes over mutual TLS; resolves with whatever the server answered before closing. */
function raw(bytes: string, abort: boolean): Promise<string> {
  const { port } = new URL(sim.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), key: client.keyPem, cert: client.certPem, rejectUnauthorized: false }, () => {
      socket.write(bytes, () => {
        if (abort) socket.destroy();
      });
    });
    let answer = '';
    socket.on('data', (d) => (answer += String(d)));
    socket.on('close', () => resolve(answer));
    socket.on('error', (err) => (abort ? resolve(answer) : reject(err)));
  });
}

describe('authority simulator', () => {
  it('a client dropping a request halfway through its body leaves no rejected promise behind; the next request is answered', async () => {
    const before = sim.stats().requests;
    await raw('POST /ws/NFeAutorizacao4 HTTP/1.1\r\nHost: x\r\nContent-Type: application/soap+xml\r\nContent-Length: 10000\r\n\r\n<soap:Envelope', true);
    // Wait for the condition: the simulator took the dropped request in.
    await eventually(async () => sim.stats().requests > before, 20_000, 'the simulator to take the dropped request in');
    expect(sim.stats().requests).toBe(before + 1);
    const answer = await raw('POST /ws/NFeAutorizacao4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/soap+xml\r\nContent-Length: 5\r\n\r\nhello', false);
    expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(rejections).toEqual([]);
  });
});
