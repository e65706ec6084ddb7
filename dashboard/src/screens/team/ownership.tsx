import { Alert, Button, Group, Select, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { useStepUp } from '../../components/step-up.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { ConfirmButton } from './confirm-button.js';
import { useMembers } from './members.js';

/** The owner hands the account to another member (and becomes admin); needs a recent sign-in. */
function Transfer() {
  const session = useSession();
  const stepUp = useStepUp();
  const client = useQueryClient();
  const members = useMembers();
  const [userId, setUserId] = useState<string | null>(null);
  const [key, setKey] = useState(idempotencyKey);
  const others = (members.data?.data ?? []).filter((m) => m.user_id !== session.me.user.id).map((m) => ({ value: m.user_id, label: `${m.name} (${m.email})` }));
  const transfer = useMutation({
    mutationFn: () => stepUp(() => orThrow(api.POST('/v1/team/transfer-ownership', { body: { user_id: userId ?? '' }, idempotencyKey: key }))),
    onSuccess: async () => {
      setKey(idempotencyKey());
      await client.invalidateQueries({ queryKey: ['team'] });
      await session.reload();
    },
  });
  return (
    <>
      <Title order={2} size="h3">
        {t.team.transferTitle}
      </Title>
      <Text size="sm">{t.team.transferText}</Text>
      <Group align="flex-end" wrap="wrap">
        <Select label={t.team.newOwner} data={others} value={userId} onChange={setUserId} w={{ base: '100%', sm: 320 }} />
        <Button disabled={!userId} loading={transfer.isPending} onClick={() => transfer.mutate()}>
          {t.team.transfer}
        </Button>
      </Group>
      {transfer.isSuccess && (
        <Alert color="green" role="status">
          {t.team.transferred(transfer.data.name)}
        </Alert>
      )}
      <ApiError error={transfer.error} />
    </>
  );
}

export function Ownership() {
  const session = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const leave = async () => {
    await orThrow(api.POST('/v1/team/leave'));
    await client.invalidateQueries({ queryKey: ['session'] });
    navigate('/');
  };
  return (
    <>
      {session.me.role === 'owner' && <Transfer />}
      <Title order={2} size="h3">
        {t.team.yourself}
      </Title>
      <Group>
        <ConfirmButton variant="light" color="red" label={t.team.leave} title={t.team.leave} question={t.team.leaveConfirm} onConfirm={leave} />
      </Group>
    </>
  );
}
