import { ApiError } from '../../kernel/errors.js';
import type { Queryable } from '../../infra/storage/db.js';
import { lockInviteWindows, type InviteWindow } from './storage/invite-repository.js';

/**
 * An invite is an e-mail the gateway sends to any address, with words the inviter
 * chose (the account's name). Invite-and-revoke in a loop made it a mailer for anyone. So in any 24
 * hours an account sends at most 20 invitations, and an address receives at most 3, whoever sends
 * them; a revoked invite still counts (its mail was sent). Past either: 429 invite_limit_reached
 * with Retry-After, the moment the oldest invite of the window leaves it.
 */
export const INVITES_PER_ACCOUNT_PER_DAY = 20;
export const INVITES_PER_ADDRESS_PER_DAY = 3;
const DAY_MS = 86_400_000;

export async function assertInviteBudget(tx: Queryable, accountId: string, emailKey: string, now: Date): Promise<void> {
  const windows = await lockInviteWindows(tx, accountId, emailKey, new Date(now.getTime() - DAY_MS));
  refuseIfFull(windows.account, INVITES_PER_ACCOUNT_PER_DAY, now, 'account', `This account sent ${INVITES_PER_ACCOUNT_PER_DAY} invitations in the last 24 hours, the most it may`);
  refuseIfFull(windows.address, INVITES_PER_ADDRESS_PER_DAY, now, 'email', `This address received ${INVITES_PER_ADDRESS_PER_DAY} invitations in the last 24 hours, the most it may`);
}

function refuseIfFull(w: InviteWindow, limit: number, now: Date, field: string, why: string): void {
  if (w.count < limit) return;
  const freeAt = (w.oldest?.getTime() ?? now.getTime()) + DAY_MS;
  const seconds = Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
  throw new ApiError(
    'invite_limit_reached',
    `${why} (revoked ones count: their mail was sent); retry after ${seconds} s`,
    [{ field, message: `${w.count} of ${limit} invitations in 24 hours` }],
    { 'Retry-After': String(seconds) },
  );
}
