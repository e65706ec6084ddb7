import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { Config } from '../../config.js';

export type UrlPolicy = Pick<Config, 'env' | 'webhookAllowedHosts'>;

// SSRF guard: addresses a webhook must never reach (RFC 6890 special-purpose ranges: this host,
// private networks, carrier-grade NAT, loopback, link-local incl. cloud metadata 169.254.169.254,
// benchmarking, multicast, reserved; IPv6 unspecified, loopback, unique-local, link-local, multicast).
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96]] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  // ::ffff:10.0.0.1 is 10.0.0.1 on the wire.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  return BLOCKED.check(address, 'ipv6');
}

export class WebhookUrlError extends Error {}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** In the sandbox, how a loopback target is allowed: on one's own machine only. */
function loopbackHint(host: string, policy: UrlPolicy): string {
  if (policy.env !== 'sandbox') return '';
  const family = isIP(host);
  const loopback = host === 'localhost' || host.endsWith('.localhost') || (family !== 0 && LOOPBACK.check(host, family === 6 ? 'ipv6' : 'ipv4'));
  return loopback ? ' (a sandbox on your own machine allows 127.0.0.1 and localhost with WEBHOOKS_ALLOW_LOOPBACK=true)' : '';
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Static checks at creation: scheme, no credentials, and no literal private address (production: https only). */
export function checkWebhookUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('is not a valid absolute URL');
  }
  const allowed = policy.webhookAllowedHosts.includes(hostOf(url));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (policy.env === 'sandbox' || allowed))) {
    throw new WebhookUrlError(policy.env === 'sandbox' ? 'must use http or https' : 'must use https');
  }
  if (url.username || url.password) throw new WebhookUrlError('must not carry credentials');
  if (!allowed && (hostOf(url) === 'localhost' || hostOf(url).endsWith('.localhost') || (isIP(hostOf(url)) && isBlockedAddress(hostOf(url))))) {
    throw new WebhookUrlError(`must not point at a private, loopback or link-local address${loopbackHint(hostOf(url), policy)}`);
  }
  return url;
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * At delivery time (DNS may have changed since creation: DNS rebinding): resolve the host, refuse if
 * any address is private, and hand back the checked address the request must connect to.
 */
export async function resolveWebhookTarget(raw: string, policy: UrlPolicy, resolve = lookup): Promise<ResolvedTarget> {
  const url = checkWebhookUrl(raw, policy);
  const host = hostOf(url);
  const allowed = policy.webhookAllowedHosts.includes(host);
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new WebhookUrlError(`${host} does not resolve`);
  if (!allowed) {
    const bad = addresses.find((a) => isBlockedAddress(a.address));
    if (bad) throw new WebhookUrlError(`${host} resolves to a private, loopback or link-local address (${bad.address})${loopbackHint(bad.address, policy)}`);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
