// Tenants of the simulated authority. A public sandbox serves many accounts that all follow the
// README with the same example certificate and CNPJ: were the authority's state keyed by CNPJ alone,
// a second account's first sale would meet the first account's number 1 (539) and one account's
// `outage:` would stop everybody's sales. So every record (numbers, notes, events, voidings, received
// documents, NFS-e, outages, CSCs) belongs to a tenant: the account the gateway calls for.
//
// The tenant cannot be chosen by whoever talks to the simulator: the gateway sends
// `X-Sandbox-Tenant: <tenant>.<HMAC-SHA256(tenant key, tenant)>`, and the key is known to the
// simulator and its gateways only (generated in process; derived from SIM_ADMIN_TOKEN for a
// standalone simulator). An account's API caller never sets it (the gateway does, from the
// authenticated account), and a direct SOAP client without the key cannot name somebody's tenant:
// without the header it is in the operator's tenant (''), with a wrong signature it is refused.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TENANT_HEADER = 'x-sandbox-tenant';
/** Requests that carry no tenant: direct SOAP clients, tests and the operator's admin calls. */
export const OPERATOR_TENANT = '';
/** An account id or any short opaque name. */
export const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function randomTenantKey(): Buffer {
  return randomBytes(32);
}

/** The key a standalone simulator and its gateways share without another setting: one derived from SIM_ADMIN_TOKEN. */
export function tenantKeyFromAdminToken(adminToken: string): Buffer {
  return createHmac('sha256', adminToken).update('authority-sim tenant key v1').digest();
}

const signature = (key: Buffer, tenant: string) => createHmac('sha256', key).update(tenant, 'utf8').digest('base64url');

/** The header value that names `tenant` (RangeError for a name outside TENANT_ID). */
export function tenantCredential(key: Buffer, tenant: string): string {
  if (!TENANT_ID.test(tenant)) throw new RangeError('tenant must be 1-64 letters, digits, _ or -');
  return `${tenant}.${signature(key, tenant)}`;
}

/** The tenant a request's header names: OPERATOR_TENANT without one, null when it is forged or unreadable. */
export function tenantOfHeader(key: Buffer, header: string | string[] | undefined): string | null {
  if (header === undefined) return OPERATOR_TENANT;
  if (typeof header !== 'string') return null;
  const dot = header.lastIndexOf('.');
  const tenant = header.slice(0, dot);
  if (dot < 1 || !TENANT_ID.test(tenant)) return null;
  const given = Buffer.from(header.slice(dot + 1), 'utf8');
  const expected = Buffer.from(signature(key, tenant), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected) ? tenant : null;
}

/** `tenant` of an admin request body: undefined when absent, null when not a tenant name. */
export function tenantField(value: unknown): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' && TENANT_ID.test(value) ? value : null;
}
