import { Alert, Button, Group, Select, Table, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded } from '../../components/page.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { ConfirmButton } from './confirm-button.js';
import { assignableRoles, type Role } from './roles.js';
import { ScrollTable } from '../../components/scroll-table.js';

function InviteForm() {
  const session = useSession();
  const client = useQueryClient();
  const roles = assignableRoles(session.me.role as Role);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  // One key per attempt: a double click or a retry never sends two invites.
  const [key, setKey] = useState(idempotencyKey);
  const invite = useMutation({
    mutationFn: () => orThrow(api.POST('/v1/team/invites', { body: { email, role }, idempotencyKey: key })),
    onSuccess: async () => {
      setEmail('');
      setKey(idempotencyKey());
      await client.invalidateQueries({ queryKey: ['team', 'invites'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={t.team.inviteTitle}>
      <Group align="flex-end" wrap="wrap">
        <TextInput label={t.team.email} type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} w={{ base: '100%', sm: 280 }} />
        <Select label={t.team.role} data={roles} value={role} allowDeselect={false} onChange={(r) => r && setRole(r as Role)} w={{ base: '100%', sm: 200 }} />
        <Button type="submit" loading={invite.isPending}>
          {t.team.invite}
        </Button>
      </Group>
      {invite.isSuccess && (
        <Alert color="green" mt="sm" role="status">
          {t.team.inviteSent(invite.data.email)}
        </Alert>
      )}
      <ApiError error={invite.error} />
    </form>
  );
}

export function Invites() {
  const session = useSession();
  const client = useQueryClient();
  const invites = useQuery({ queryKey: ['team', 'invites'], queryFn: () => orThrow(api.GET('/v1/team/invites', { params: { query: { limit: 100 } } })) });
  const writer = session.can('members:write');
  const revoke = async (id: string) => {
    await orThrow(api.DELETE('/v1/team/invites/{id}', { params: { path: { id } } }));
    await client.invalidateQueries({ queryKey: ['team', 'invites'] });
  };
  return (
    <>
      {writer && (
        <>
          <Title order={2} size="h3">
            {t.team.inviteTitle}
          </Title>
          <InviteForm />
        </>
      )}
      <Title order={2} size="h3">
        {t.team.invites}
      </Title>
      <Loaded query={invites}>
        {(list) =>
          list.data.length === 0 ? (
            <p>{t.team.noInvites}</p>
          ) : (
            <ScrollTable minWidth={560} label={t.team.invites} head={[t.team.email, t.team.role, t.team.expires, ...(writer ? [t.team.actions] : [])]}>
              {list.data.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>{i.email}</Table.Td>
                  <Table.Td>{t.roles[i.role] ?? i.role}</Table.Td>
                  <Table.Td>{formatDateTime(i.expires_at)}</Table.Td>
                  {writer && (
                    <Table.Td>
                      <ConfirmButton size="xs" variant="light" color="red" label={t.team.revoke} aria-label={t.team.revokeOf(i.email)} title={t.team.revokeOf(i.email)} question={t.team.revokeOf(i.email)} onConfirm={() => revoke(i.id)} />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </ScrollTable>
          )
        }
      </Loaded>
    </>
  );
}
