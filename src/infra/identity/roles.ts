import { SCOPES } from './scopes.js';

/** The roles of a team member (docs/guides/api.md#contract-people; `accountant`), strongest first. */
export const ROLES = ['owner', 'admin', 'billing', 'developer', 'accountant', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const READ_DOCUMENTS = ['account:read', 'issuers:read', 'nfce:read', 'nfe:read', 'nfse:read', 'notifications:read', 'members:read'] as const;

/**
 * THE role matrix, written once: a session acts with the scopes of its member's
 * role, and every route names the scope it needs (route config `scope`), so this table is what
 * every route consults. The "Roles" table of docs/guides/people-and-teams.md is generated from the same words; a test sweeps
 * every route of the OpenAPI document with a session of each role against it.
 *  - viewer reads documents, issuers, notifications and the team;
 *  - developer also issues and cancels documents and manages applications, webhooks and notifications;
 *  - accountant reads what a viewer reads and builds and downloads the monthly XML exports (exports:write),
 *    nothing else: no issuing, cancelling, issuers, certificates, people, keys, billing or webhooks;
 *  - billing reads the account and changes billing, nothing else;
 *  - admin also manages issuers and certificates, members (never owners), the account and reads the audit log;
 *  - owner: everything, including closing the account and transferring ownership.
 */
export const ROLE_SCOPES: Readonly<Record<Role, readonly string[]>> = {
  owner: ['*'],
  admin: [
    ...READ_DOCUMENTS, 'account:write', 'issuers:write', 'nfce:write', 'nfe:write', 'nfse:write', 'applications:write', 'webhooks:write',
    'notifications:write', 'members:write', 'audit:read', 'billing:read', 'exports:write',
  ],
  developer: [...READ_DOCUMENTS, 'nfce:write', 'nfe:write', 'nfse:write', 'applications:write', 'webhooks:write', 'notifications:write', 'exports:write'],
  billing: ['account:read', 'billing:write', 'notifications:read', 'members:read'],
  accountant: [...READ_DOCUMENTS, 'exports:write'],
  viewer: [...READ_DOCUMENTS, 'exports:read'],
};

/** What each role is for, in the words the API and the people guide show. */
export const ROLE_DESCRIPTIONS: Readonly<Record<Role, string>> = {
  owner: 'Everything, including closing the account and transferring ownership',
  admin: 'Manages members (not owners), issuers and certificates, and everything a developer does',
  billing: 'Reads the account and changes billing; nothing else',
  developer: 'Issues and cancels documents; manages applications, API keys, webhooks and notifications',
  accountant: 'Reads every document of the account\'s issuers and builds and downloads the monthly XML exports; changes nothing else',
  viewer: 'Reads documents, issuers, notifications and the team, and downloads the XML exports others built',
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Only an owner gives or takes the owner role; an admin manages every other role. */
export function canManageRole(actor: Role, target: Role): boolean {
  if (actor === 'owner') return true;
  return actor === 'admin' && target !== 'owner';
}

/** What a closed account may still do beside reading: take its XMLs away (an export changes no fiscal record). */
const KEPT_WHEN_CLOSED: ReadonlySet<string> = new Set(['exports:write']);

/** Scopes left to an account that was closed: its documents stay readable for export, nothing changes. */
export function closedAccountScopes(granted: readonly string[]): string[] {
  const all = granted.includes('*') ? SCOPES.filter((s) => s !== '*') : granted;
  return [...new Set(all.map((s) => (KEPT_WHEN_CLOSED.has(s) ? s : s.replace(/:write$/, ':read'))))].filter((s) => s.endsWith(':read') || KEPT_WHEN_CLOSED.has(s));
}

/**
 * The "Roles" table of docs/guides/people-and-teams.md, from the words above (test/people/roles-readme.test.ts holds the guide
 * to it). Regenerate: npx tsx -e "import('./src/infra/identity/roles.ts').then((m) => console.log(m.rolesTableMarkdown()))"
 */
export function rolesTableMarkdown(): string {
  const rows = ROLES.map((r) => `| \`${r}\` | ${ROLE_DESCRIPTIONS[r]} | ${ROLE_SCOPES[r].map((s) => `\`${s}\``).join(', ')} |`);
  return ['| role | what it is for | scopes its sessions act with |', '|---|---|---|', ...rows].join('\n');
}
