import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../infra/storage/db.js';
import type { FactorRow } from './storage/factor-repository.js';
import { listUserMemberships } from './storage/membership-repository.js';
import { getUser } from '../../infra/storage/repositories/user-repository.js';
import { queueMailTo } from '../mail/mail-outbox.js';
import { announceNotifications, writeNotification } from '../notifications/notify.js';
import type { Ports } from '../ports/ports.js';
import type { PeopleDeps } from './people-deps.js';

/** What a use case that changes a factor needs: the people ports and the bus that wakes the inboxes. */
export type NoticeDeps = PeopleDeps & Pick<Ports, 'notifications'>;

export type FactorChange =
  | { kind: 'totp_enabled' | 'totp_disabled' }
  | { kind: 'passkey_added' | 'passkey_removed' | 'factor_confirmed'; name: string }
  | { kind: 'password_reset'; suspended: FactorRow[]; removed: FactorRow[] };

const factorName = (f: Pick<FactorRow, 'kind' | 'name'>) =>
  f.kind === 'totp' ? 'verificação em duas etapas (TOTP)' : f.kind === 'sso' ? `login único (${f.name})` : `chave de acesso "${f.name}"`;

function headline(c: FactorChange): string {
  switch (c.kind) {
    case 'totp_enabled': return 'Verificação em duas etapas (TOTP) ativada';
    case 'totp_disabled': return 'Verificação em duas etapas (TOTP) desativada';
    case 'passkey_added': return `Chave de acesso "${c.name}" adicionada`;
    case 'passkey_removed': return `Chave de acesso "${c.name}" removida`;
    case 'factor_confirmed': return `Fator de acesso confirmado: ${c.name}`;
    case 'password_reset': return 'Senha redefinida';
  }
}

const when = (at: Date) =>
  `${new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'medium' }).format(at)} (horário de Brasília; ${at.toISOString()})`;

function details(c: FactorChange): string {
  if (c.kind !== 'password_reset') return '';
  const lines = ['Todas as sessões abertas foram encerradas.'];
  if (c.removed.length > 0) {
    lines.push(`Como o e-mail foi confirmado por esta redefinição, removemos o que foi cadastrado antes dela: ${c.removed.map(factorName).join(', ')}.`);
  }
  if (c.suspended.length > 0) {
    lines.push(`Suspensos até você confirmar (adicionados nas 24 horas anteriores): ${c.suspended.map((f) => `${factorName(f)}, ${f.kind === 'sso' ? 'adicionado' : 'adicionada'} em ${when(f.created_at)}`).join('; ')}.`);
  }
  return `${lines.join('\n')}\n\n`;
}

/**
 * Tells the person that a sign-in factor or the password changed: an e-mail to the
 * user's own address and an in-app notification in each account they belong to, naming what changed,
 * when and from which IP address, with a link to the security page where factors are reviewed. In the
 * caller's transaction; answers the accounts to wake once it commits (`announceFactorNotice`).
 */
export async function writeFactorNotice(
  tx: Queryable,
  deps: Pick<PeopleDeps, 'config' | 'secrets'>,
  n: { userId: string; change: FactorChange; ip: string | null; at: Date },
): Promise<string[]> {
  const user = await getUser(tx, n.userId);
  const memberships = await listUserMemberships(tx, n.userId);
  if (!user || memberships.length === 0) return [];
  const title = headline(n.change);
  const ip = n.ip ?? 'desconhecido';
  const link = `${deps.config.people.dashboardUrl}/security`;
  const text = `${title} na sua conta (${user.email}).\n\nQuando: ${when(n.at)}\nEndereço IP: ${ip}\n\n${details(n.change)}`
    + `Se foi você, não é preciso fazer nada. Se não foi, redefina sua senha e revise seus fatores de acesso:\n${link}\n`;
  const sourceKey = `security:${n.change.kind}:${randomBytes(10).toString('hex')}`;
  // The outbox files a message under an account; the person's first one, as the reset link does.
  await queueMailTo(tx, deps.secrets, { accountId: memberships[0]!.account_id, to: user.email, subject: `Segurança da conta: ${title}`, text, sourceKey, at: n.at });
  for (const m of memberships) {
    await writeNotification(tx, {
      accountId: m.account_id,
      type: n.change.kind === 'password_reset' ? 'security.password_reset' : 'security.factor_changed',
      title,
      body: `${user.email}: ${title.toLowerCase()} em ${when(n.at)}, a partir do IP ${ip}. Revise seus fatores em ${link}`,
      data: { user_id: user.id, change: n.change.kind, ip: n.ip, at: n.at.toISOString(), review_url: link },
      sourceKey: `${sourceKey}:${m.account_id}`,
      at: n.at,
    });
  }
  return memberships.map((m) => m.account_id);
}

/** Wakes the notification streams after the commit. */
export const announceFactorNotice = (deps: Pick<Ports, 'notifications'>, accountIds: string[]) => announceNotifications(deps, accountIds);
