import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { useStepUp } from '../../components/step-up.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';

/**
 * A password reset suspends every factor added in the 24 hours before it (perhaps by
 * whoever the reset shut out). Here the owner, signed in with the new password, confirms or removes each.
 */
export function SuspendedFactors() {
  const session = useSession();
  const stepUp = useStepUp();
  const client = useQueryClient();
  const list = useQuery({ queryKey: ['security', 'factors'], queryFn: () => orThrow(api.GET('/v1/auth/factors')) });
  const changed = async () => {
    await client.invalidateQueries({ queryKey: ['security'] });
    await session.reload();
  };
  const confirm = useMutation({
    mutationFn: (id: string) => stepUp(() => orThrow(api.POST('/v1/auth/factors/{id}/confirm', { params: { path: { id } } }))),
    onSuccess: changed,
  });
  const remove = useMutation({
    mutationFn: (id: string) => stepUp(() => orThrow(api.DELETE('/v1/auth/factors/{id}', { params: { path: { id } } }))),
    onSuccess: changed,
  });
  const suspended = (list.data?.data ?? []).filter((f) => f.suspended);
  if (suspended.length === 0) return null;
  return (
    <Alert color="orange" title={t.security.suspendedTitle} data-testid="suspended-factors">
      <Stack gap="xs">
        <Text size="sm">{t.security.suspendedText}</Text>
        {suspended.map((f) => (
          <Group key={f.id} justify="space-between" wrap="wrap">
            <Text size="sm">
              {t.security.factorName(f.type, f.name)}, {t.security.addedAt(f.type, formatDateTime(f.created_at))}
            </Text>
            <Group gap="xs">
              <Button size="xs" loading={confirm.isPending && confirm.variables === f.id} onClick={() => confirm.mutate(f.id)}>
                {t.security.confirmFactor}
              </Button>
              <Button size="xs" variant="light" color="red" loading={remove.isPending && remove.variables === f.id} onClick={() => remove.mutate(f.id)}>
                {t.security.removeFactor}
              </Button>
            </Group>
          </Group>
        ))}
        <ApiError error={confirm.error ?? remove.error} />
      </Stack>
    </Alert>
  );
}
