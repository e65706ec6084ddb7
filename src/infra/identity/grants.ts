import { ApiError } from '../../kernel/errors.js';
import { ROLE_SCOPES, type Role } from './roles.js';
import { missingScopes } from './scopes.js';

/**
 * Nothing grants more than its granter holds. Whoever hands out rights (an invite
 * or a role change gives a role, a new key gives scopes) must hold every scope of what they give:
 * a member the scopes of their role, an API key its own scopes (`x:write` covers `x:read`, `*`
 * everything). Otherwise a key with only `members:write` invites an admin who then makes keys the
 * first key never had. The answer names what is in excess, so the caller knows what to drop.
 */
export function requireWithinOwnRights(granted: readonly string[], wanted: readonly string[], what: string): void {
  const excess = missingScopes(granted, wanted);
  if (excess.length === 0) return;
  throw new ApiError(
    'exceeds_own_rights',
    `You cannot ${what}: it gives scopes you do not hold yourself (${excess.map((s) => `"${s}"`).join(', ')})`,
    excess.map((s) => ({ field: 'scopes', message: `${s} is not held by the caller` })),
  );
}

/** The same rule for a role: the granter must hold every scope the role acts with (ROLE_SCOPES). */
export function requireRoleWithinOwnRights(granted: readonly string[], role: Role, what: string): void {
  const excess = missingScopes(granted, ROLE_SCOPES[role]);
  if (excess.length === 0) return;
  throw new ApiError(
    'exceeds_own_rights',
    `You cannot ${what} ${role}: the role ${role} acts with scopes you do not hold yourself (${excess.map((s) => `"${s}"`).join(', ')})`,
    [{ field: 'role', message: `${role} exceeds the caller's rights by ${excess.join(', ')}` }],
  );
}
