import { connect } from 'node:net';
import type { HealthCheck } from './deep-health.js';
import type { SecretBox } from '../security/secret-box.js';

/** /healthz/deep: the master key can wrap and unwrap a data key (certificates and CSCs stay readable). */
export function keyStoreCheck(secrets: SecretBox): HealthCheck {
  return {
    name: 'key_store',
    async check() {
      if (!(await secrets.provider.healthCheck())) throw new Error(`master key ${secrets.provider.keyId} cannot wrap/unwrap`);
    },
  };
}

/** /healthz/deep: the (simulated) authority accepts connections. */
export function authorityReachableCheck(url: string): HealthCheck {
  const { hostname, port } = new URL(url);
  return {
    name: 'authority',
    check: () =>
      new Promise<void>((resolve, reject) => {
        const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 443) });
        socket.setTimeout(2_000, () => socket.destroy(new Error(`no answer from ${url}`)));
        socket.once('connect', () => {
          socket.end();
          resolve();
        });
        socket.once('error', (err) => reject(new Error(`${url}: ${err.message}`)));
      }),
  };
}
