import { Alert, Badge, Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { useStepUp } from '../../components/step-up.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useAction } from '../../components/use-action.js';
import type { Application } from './contract.js';
import { CreateKey } from './create-key.js';
import { usePaged } from './paged.js';
import { PagedTable } from './data-table.js';
import { ListIntro } from './section.js';
import { Confirm, SecretOnce } from './secret-once.js';

const KEYS = ['developers', 'applications'];
const w = t.developers.keys;

/** A key just created or rotated: shown once, then forgotten. */
interface Fresh {
  title: string;
  key: string;
  previousUntil?: string | null;
}

export default function ApiKeys() {
  const client = useQueryClient();
  const stepUp = useStepUp();
  const paged = usePaged<Application>(KEYS, (after) => orThrow(api.GET('/v1/applications', { params: { query: { limit: 50, starting_after: after } } })));
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<Fresh | null>(null);
  const [rotating, setRotating] = useState<Application | null>(null);
  const [revoking, setRevoking] = useState<Application | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const rotation = useAction();
  const revocation = useAction();
  const refresh = () => client.invalidateQueries({ queryKey: KEYS });

  const rotate = (app: Application) => {
    const key = idempotencyKey();
    void rotation.run(async () => {
      const rotated = await stepUp(() => orThrow(api.POST('/v1/applications/{id}/rotate', { params: { path: { id: app.id } }, idempotencyKey: key })));
      setRotating(null);
      setFresh({ title: w.rotated, key: rotated.key, previousUntil: rotated.previous_key_expires_at });
      await refresh();
    });
  };
  const revoke = (app: Application) =>
    void revocation.run(async () => {
      await stepUp(() => orThrow(api.DELETE('/v1/applications/{id}', { params: { path: { id: app.id } } })));
      setRevoking(null);
      setNotice(w.revokedNotice);
      await refresh();
    });
  const close = () => {
    setRotating(null);
    setRevoking(null);
  };

  return (
    <Stack>
      <ListIntro text={w.intro} action={w.newKey} onAction={() => setCreating(true)} />
      {notice && (
        <Alert color="brand" role="status" withCloseButton closeButtonLabel={t.close} onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <PagedTable
        paged={paged}
        empty={w.empty}
        minWidth={820}
        label={w.title}
        headers={[w.name, w.prefix, w.scopes, w.createdAt, w.rotatedAt, w.actions]}
        row={(a) => (
          <Table.Tr key={a.id} data-testid={`application-${a.id}`}>
            <Table.Td>{a.name}</Table.Td>
            <Table.Td>
              <Code>{a.key_prefix}…</Code>
            </Table.Td>
            <Table.Td>
              <Group gap={4}>
                {a.scopes.map((s) => (
                  <Badge key={s} variant="light" color="gray" tt="none">
                    {s}
                  </Badge>
                ))}
              </Group>
            </Table.Td>
            <Table.Td>{formatDateTime(a.created_at)}</Table.Td>
            <Table.Td>
              {formatDateTime(a.rotated_at)}
              {a.previous_key_expires_at && (
                <Text size="xs">{w.previousUntil(formatDateTime(a.previous_key_expires_at))}</Text>
              )}
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant="light" aria-label={w.rotate(a.name)} onClick={() => setRotating(a)}>
                  {w.rotateShort}
                </Button>
                <Button size="xs" variant="light" color="red" aria-label={w.revoke(a.name)} onClick={() => setRevoking(a)}>
                  {w.revokeShort}
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        )}
      />

      <CreateKey
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setFresh({ title: w.created, key });
          void refresh();
        }}
      />
      <Confirm
        opened={rotating !== null}
        title={w.rotateTitle}
        text={w.rotateText}
        action={w.rotateConfirm}
        color="brand"
        busy={rotation.busy}
        error={<ApiError error={rotation.error} />}
        onConfirm={() => rotating && rotate(rotating)}
        onClose={close}
      />
      <Confirm
        opened={revoking !== null}
        title={w.revokeTitle}
        text={revoking ? w.revokeText(revoking.name) : ''}
        action={w.revokeConfirm}
        busy={revocation.busy}
        error={<ApiError error={revocation.error} />}
        onConfirm={() => revoking && revoke(revoking)}
        onClose={close}
      />
      <SecretOnce title={fresh?.title ?? ''} label={w.secretLabel} secret={fresh?.key ?? null} onClose={() => setFresh(null)}>
        {fresh?.previousUntil && <Text size="sm">{w.previousValidUntil(formatDateTime(fresh.previousUntil))}</Text>}
      </SecretOnce>
    </Stack>
  );
}
