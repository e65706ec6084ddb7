import { Alert, Badge, Button, Group, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, orThrow } from '../../api/client.js';
import { registerPasskey } from '../../api/passkeys.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded } from '../../components/page.js';
import { useStepUp } from '../../components/step-up.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { ScrollTable } from '../../components/scroll-table.js';

export function Passkeys() {
  const session = useSession();
  const stepUp = useStepUp();
  const client = useQueryClient();
  const [name, setName] = useState(t.security.passkeyNameDefault);
  const list = useQuery({ queryKey: ['security', 'passkeys'], queryFn: () => orThrow(api.GET('/v1/auth/webauthn/credentials')) });
  const changed = async () => {
    await client.invalidateQueries({ queryKey: ['security', 'passkeys'] });
    await session.reload();
  };
  // Adding a passkey needs a recent proof.
  const add = useMutation({ mutationFn: () => stepUp(() => registerPasskey(name)), onSuccess: changed });
  const remove = useMutation({
    mutationFn: (id: string) => stepUp(() => orThrow(api.DELETE('/v1/auth/webauthn/credentials/{id}', { params: { path: { id } } }))),
    onSuccess: changed,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <>
      <Title order={2} size="h3">
        {t.security.passkeys}
      </Title>
      <form onSubmit={submit}>
        <Group align="flex-end" wrap="wrap">
          <TextInput label={t.security.passkeyName} required maxLength={64} value={name} onChange={(e) => setName(e.currentTarget.value)} w={{ base: '100%', sm: 280 }} />
          <Button type="submit" loading={add.isPending}>
            {t.security.addPasskey}
          </Button>
        </Group>
      </form>
      {add.isSuccess && (
        <Alert color="green" role="status">
          {t.security.passkeyAdded(add.data.name)}
        </Alert>
      )}
      <ApiError error={add.error ?? remove.error} />
      <Loaded query={list}>
        {(l) =>
          l.data.length === 0 ? (
            <Text size="sm">{t.security.noPasskeys}</Text>
          ) : (
            <ScrollTable minWidth={560} label={t.security.passkeys} head={[t.security.passkeyName, t.security.created, t.security.lastUsed, t.team.actions]}>
              {l.data.map((p) => (
                <Table.Tr key={p.id} data-testid="passkey-row">
                  <Table.Td>
                    {p.name} {p.backed_up && <Badge variant="light">{t.security.synced}</Badge>}{' '}
                    {p.suspended && <Badge color="orange">{t.security.suspended}</Badge>}
                  </Table.Td>
                  <Table.Td>{formatDateTime(p.created_at)}</Table.Td>
                  <Table.Td>{formatDateTime(p.last_used_at)}</Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="light" color="red" loading={remove.isPending && remove.variables === p.id} onClick={() => remove.mutate(p.id)} aria-label={t.security.deletePasskeyOf(p.name)}>
                      {t.delete}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </ScrollTable>
          )
        }
      </Loaded>
    </>
  );
}
