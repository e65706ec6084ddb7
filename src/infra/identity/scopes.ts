/**
 * API key scopes. `<resource>:write` also covers `<resource>:read`; `*` covers everything.
 * A key can only create, rotate or revoke keys whose scopes it covers itself (no escalation, and no
 * narrower key taking a broader one away).
 */
export const SCOPES = [
  '*',
  'account:read',
  'account:write',
  'applications:read',
  'applications:write',
  'issuers:read',
  'issuers:write',
  'nfce:read',
  'nfce:write',
  'nfe:read',
  'nfe:write',
  'nfse:read',
  'nfse:write',
  'webhooks:read',
  'webhooks:write',
  'notifications:read',
  'notifications:write',
  'audit:read',
  'members:read',
  'members:write',
  'billing:read',
  'billing:write',
  'exports:read',
  'exports:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function scopeCovers(granted: readonly string[], required: string): boolean {
  if (granted.includes('*') || granted.includes(required)) return true;
  const [resource, action] = required.split(':');
  return action === 'read' && granted.includes(`${resource}:write`);
}

export function coversAll(granted: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) => (w === '*' ? granted.includes('*') : scopeCovers(granted, w)));
}

/** The scopes of `wanted` that `granted` does not cover (empty: it covers them all). */
export function missingScopes(granted: readonly string[], wanted: readonly string[]): string[] {
  return wanted.filter((w) => !coversAll(granted, [w]));
}
