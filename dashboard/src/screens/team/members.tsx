import { Badge, Select, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, idempotencyKey, orThrow, type paths } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded } from '../../components/page.js';
import { useStepUp } from '../../components/step-up.js';
import { formatDate } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { ConfirmButton } from './confirm-button.js';
import { assignableRoles, canManageRole, type Role } from './roles.js';
import { ScrollTable } from '../../components/scroll-table.js';

export type Member = paths['/v1/team/members']['get']['responses'][200]['content']['application/json']['data'][number];

/** Every member of the team, up to 100 (a team past that is a support case, not a screen). */
export function useMembers() {
  return useQuery({ queryKey: ['team', 'members'], queryFn: () => orThrow(api.GET('/v1/team/members', { params: { query: { limit: 100 } } })) });
}

function RoleCell({ member }: { member: Member }) {
  const session = useSession();
  const stepUp = useStepUp();
  const client = useQueryClient();
  const me = session.me.role as Role;
  const change = useMutation({
    // One key per choice, kept across the step-up's second try: the gateway changes the role once.
    mutationFn: (role: Role) => {
      const key = idempotencyKey();
      return stepUp(() => orThrow(api.PATCH('/v1/team/members/{id}/role', { params: { path: { id: member.id } }, body: { role }, idempotencyKey: key })));
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['team'] }),
  });
  const editable = session.can('members:write') && member.user_id !== session.me.user.id && canManageRole(me, member.role);
  if (!editable) return <Text size="sm">{t.roles[member.role] ?? member.role}</Text>;
  return (
    <>
      <Select
        aria-label={t.team.roleOf(member.name)}
        data={assignableRoles(me)}
        value={member.role}
        allowDeselect={false}
        disabled={change.isPending}
        onChange={(role) => role && role !== member.role && change.mutate(role as Role)}
        w={170}
      />
      <ApiError error={change.error} />
    </>
  );
}

export function MembersTable() {
  const session = useSession();
  const client = useQueryClient();
  const members = useMembers();
  const me = session.me.role as Role;
  const remove = async (m: Member) => {
    await orThrow(api.DELETE('/v1/team/members/{id}', { params: { path: { id: m.id } } }));
    await client.invalidateQueries({ queryKey: ['team'] });
  };
  return (
    <Loaded query={members}>
      {(list) => (
        <ScrollTable minWidth={720} label={t.team.members} head={[t.team.name, t.team.email, t.team.role, t.team.joined, t.team.actions]} striped>
          {list.data.map((m) => (
            <Table.Tr key={m.id} data-testid={`member-${m.email}`}>
              <Table.Td>
                {m.name} {m.user_id === session.me.user.id && <Badge variant="light">{t.team.you}</Badge>}
              </Table.Td>
              <Table.Td>{m.email}</Table.Td>
              <Table.Td>
                <RoleCell member={m} />
              </Table.Td>
              <Table.Td>{formatDate(m.joined_at)}</Table.Td>
              <Table.Td>
                {session.can('members:write') && m.user_id !== session.me.user.id && canManageRole(me, m.role) && (
                  <ConfirmButton
                    size="xs"
                    variant="light"
                    color="red"
                    label={t.team.remove}
                    aria-label={t.team.removeOf(m.name)}
                    title={t.team.removeOf(m.name)}
                    question={t.team.removeConfirm(m.name)}
                    onConfirm={() => remove(m)}
                  />
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </ScrollTable>
      )}
    </Loaded>
  );
}
