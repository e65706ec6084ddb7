import type { Queryable } from '../../../infra/storage/db.js';

/** What an account holds that a plan limits, newest first: what a smaller plan would have removed. Archived issuers are not held. */
export interface LimitedHoldings {
  issuers: { id: string; name: string; cnpj: string }[];
  /** Pending invites first (the cheapest to take back), then members other than owners, newest first. */
  team: { kind: 'invite' | 'member'; id: string; email: string; role: string }[];
  /** Owners count toward the team too, but are never proposed for removal. */
  owners: number;
}

export async function limitedHoldings(db: Queryable, accountId: string, now: Date): Promise<LimitedHoldings> {
  const issuers = await db.query<{ id: string; name: string; cnpj: string }>(
    'SELECT id, razao_social AS name, cnpj FROM issuers WHERE account_id = $1 AND archived_at IS NULL ORDER BY created_at DESC, id DESC',
    [accountId],
  );
  const team = await db.query<{ kind: 'invite' | 'member'; id: string; email: string; role: string }>(
    `SELECT * FROM (
       SELECT 'invite' AS kind, i.id, i.email, i.role, 0 AS ord, i.created_at FROM invites i
        WHERE i.account_id = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > $2
       UNION ALL
       SELECT 'member' AS kind, m.user_id AS id, u.email, m.role, 1 AS ord, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = $1
     ) t ORDER BY ord, created_at DESC, id DESC`,
    [accountId, now],
  );
  return {
    issuers: issuers.rows,
    team: team.rows.filter((r) => !(r.kind === 'member' && r.role === 'owner')).map(({ kind, id, email, role }) => ({ kind, id, email, role })),
    owners: team.rows.filter((r) => r.kind === 'member' && r.role === 'owner').length,
  };
}
