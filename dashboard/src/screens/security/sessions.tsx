import { Badge, Button, Table, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded } from '../../components/page.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { ScrollTable } from '../../components/scroll-table.js';

/** A readable name for a session's browser: its user agent's product, not the whole string. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return t.security.unknownDevice;
  const browser = /(Edg|Firefox|Chrome|Safari)\/[\d.]+/.exec(userAgent)?.[0].replace('Edg', 'Edge') ?? userAgent.slice(0, 40);
  const os = /(Windows|Android|iPhone|Mac OS X|Linux)/.exec(userAgent)?.[0];
  return os ? `${browser} · ${os}` : browser;
}

export function Sessions() {
  const client = useQueryClient();
  const sessions = useQuery({ queryKey: ['security', 'sessions'], queryFn: () => orThrow(api.GET('/v1/auth/sessions')) });
  const revoke = useMutation({
    mutationFn: (id: string) => orThrow(api.DELETE('/v1/auth/sessions/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['security', 'sessions'] }),
  });
  return (
    <>
      <Title order={2} size="h3">
        {t.security.sessions}
      </Title>
      <ApiError error={revoke.error} />
      <Loaded query={sessions}>
        {(list) => (
          <ScrollTable minWidth={680} label={t.security.sessions} head={[t.security.device, t.security.ip, t.security.methods, t.security.lastUsed, t.team.actions]}>
            {list.data.map((s) => (
              <Table.Tr key={s.id} data-testid="session-row">
                <Table.Td>{deviceOf(s.user_agent)}</Table.Td>
                <Table.Td>{s.ip ?? '—'}</Table.Td>
                <Table.Td>{s.methods.map((m) => t.security.methodNames[m] ?? m).join(', ')}</Table.Td>
                <Table.Td>{formatDateTime(s.last_used_at)}</Table.Td>
                <Table.Td>
                  {s.current ? (
                    <Badge variant="light">{t.security.current}</Badge>
                  ) : (
                    <Button size="xs" variant="light" color="red" loading={revoke.isPending && revoke.variables === s.id} onClick={() => revoke.mutate(s.id)} aria-label={t.security.revokeOf(deviceOf(s.user_agent))}>
                      {t.security.revoke}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </ScrollTable>
        )}
      </Loaded>
    </>
  );
}
