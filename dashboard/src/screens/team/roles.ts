import { canManageRole, ROLES, type Role } from '../../../../src/infra/identity/roles.js';
import { t } from '../../i18n/index.js';

export { canManageRole, type Role };

/** The roles this member may give (the gateway's own rule, infra/identity/roles.ts), as Select options. */
export function assignableRoles(actor: Role): { value: Role; label: string }[] {
  return ROLES.filter((r) => canManageRole(actor, r)).map((r) => ({ value: r, label: t.roles[r] ?? r }));
}
