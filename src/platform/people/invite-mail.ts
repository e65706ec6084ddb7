import type { Role } from '../../infra/identity/roles.js';

/** Roles as the invitee reads them. */
const ROLE_WORDS: Readonly<Record<Role, string>> = {
  owner: 'proprietário(a)', admin: 'administrador(a)', billing: 'financeiro', developer: 'desenvolvedor(a)', accountant: 'contador(a)', viewer: 'leitor(a)',
};

const NAME_MAX = 60;

/**
 * The account's name as an invitation shows it. The name is typed by whoever created the account,
 * and an invitation goes to any address: left as it is, the subject line is
 * theirs to write ("Your bank: confirm at evil.example"). So it is one line (no header injection),
 * at most 60 characters, always in quotes after words of ours that say what the message is, and its
 * dots are kept from forming a link that a mail client would make clickable.
 */
export function safeAccountName(name: string | null | undefined): string {
  const line = (name ?? '').replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  const short = line.length > NAME_MAX ? `${line.slice(0, NAME_MAX - 1)}…` : line;
  // "evil.example" -> "evil. example": still readable, no longer a host name a client turns into a link.
  return (short || 'sem nome').replace(/\.(?=\S)/g, '. ').replace(/:\/\//g, ': //');
}

export function inviteMail(accountName: string | null | undefined, role: Role, link: string, token: string, days: number): { subject: string; text: string } {
  const name = safeAccountName(accountName);
  return {
    subject: `Convite para a equipe "${name}" no gateway fiscal`,
    text:
      `Você foi convidado(a) para a equipe da conta "${name}" no gateway fiscal, com o papel ${ROLE_WORDS[role]} (${role}).\n` +
      'O nome entre aspas foi escolhido por quem criou a conta. Se você não esperava este convite, ignore esta mensagem: nada acontece sem você.\n\n' +
      `Para aceitar, entre (ou crie seu acesso) com este e-mail e abra o link abaixo em até ${days} dias; ele funciona uma vez:\n\n${link}\n\n` +
      `Só o código, para clientes da API (POST /v1/team/invites/accept): ${token}\n`,
  };
}
