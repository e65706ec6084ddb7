import { connect } from 'node:net';
import type { HealthCheck } from './deep-health.js';
import type { SecretBox } from '../../infra/security/secret-box.js';

/**
 * /healthz/deep: the local master key and the custody provider (an HSM or KMS under KEY_PROVIDER) can
 * each wrap and open a data key: certificates, CSCs and the gateway's own secrets stay readable.
 */
export function keyStoreCheck(secrets: SecretBox): HealthCheck {
  return {
    name: 'key_store',
    async check() {
      for (const p of new Set([secrets.provider, secrets.custody])) {
        if (!(await p.healthCheck())) throw new Error(`${p.mode} master key ${p.keyId} (${p.label}) cannot wrap/unwrap`);
      }
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
