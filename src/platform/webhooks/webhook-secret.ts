import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { SecretBox } from '../../infra/security/secret-box.js';

// Standard Webhooks: the secret is `whsec_` + base64 of 24-64 random bytes; HMAC-SHA256 uses those bytes.
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const aad = (endpointId: string) => `webhook:${endpointId}:signing_secret`;

/** docs/decisions.md#no-secret-in-clear: the secret is needed in clear to sign, so it is stored envelope-encrypted, never hashed. */
export function sealWebhookSecret(secrets: SecretBox, endpointId: string, secret: string): Promise<string> {
  return secrets.encrypt(Buffer.from(secret, 'utf8'), aad(endpointId));
}

export async function openWebhookSecret(secrets: SecretBox, endpointId: string, blob: string): Promise<string> {
  return (await secrets.decrypt(blob, aad(endpointId))).toString('utf8');
}

/** The three Standard Webhooks headers for one attempt: `webhook-id` is the event id, stable across retries. */
export function signedHeaders(secret: string, messageId: string, at: Date, payload: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, payload),
  };
}
