import { Alert, Anchor, Button, Card, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded } from '../../components/page.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { useAction } from '../../components/use-action.js';
import type { EventType, WebhookEndpoint } from './contract.js';
import { Deliveries, deliveriesKey } from './deliveries.js';
import { Confirm } from './secret-once.js';
import { EndpointState, WEBHOOKS } from './webhooks.js';
import { WebhookForm, type WebhookFields } from './webhook-form.js';

const w = t.developers.webhooks;
/** How long the delivery log refreshes itself after a test or a replay (the worker sends within seconds). */
const WATCH_MS = 20_000;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {children}
      </Text>
    </Stack>
  );
}

export default function WebhookDetail() {
  const { id = '' } = useParams();
  const session = useSession();
  const canWrite = session.can('webhooks:write');
  const client = useQueryClient();
  const navigate = useNavigate();
  const query = useQuery({ queryKey: [...WEBHOOKS, id], queryFn: () => orThrow(api.GET('/v1/webhooks/{id}', { params: { path: { id } } })) });
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [watching, setWatching] = useState(false);
  const action = useAction();
  const edit = useAction();
  useEffect(() => {
    if (!watching) return;
    const timer = setTimeout(() => setWatching(false), WATCH_MS);
    return () => clearTimeout(timer);
  }, [watching]);

  const save = (fields: WebhookFields) => {
    const key = idempotencyKey();
    void edit.run(async () => {
      const body = { url: fields.url, event_types: fields.event_types, description: fields.description, enabled: fields.enabled };
      const updated = await orThrow(api.PATCH('/v1/webhooks/{id}', { params: { path: { id } }, body, idempotencyKey: key }));
      client.setQueryData([...WEBHOOKS, id], updated);
      setEditing(false);
      setNotice(w.saved);
      await client.invalidateQueries({ queryKey: WEBHOOKS, exact: true });
    });
  };
  const sendTest = () => {
    const key = idempotencyKey();
    void action.run(async () => {
      await orThrow(api.POST('/v1/webhooks/{id}/test', { params: { path: { id } }, idempotencyKey: key }));
      setNotice(w.testQueued);
      setWatching(true);
      await client.invalidateQueries({ queryKey: deliveriesKey(id) });
    });
  };
  const remove = () =>
    void action.run(async () => {
      await orThrow(api.DELETE('/v1/webhooks/{id}', { params: { path: { id } } }));
      client.removeQueries({ queryKey: [...WEBHOOKS, id] });
      await client.invalidateQueries({ queryKey: WEBHOOKS, exact: true });
      navigate('/developers/webhooks');
    });

  return (
    <Stack>
      <Anchor component={Link} to="/developers/webhooks" size="sm">
        ← {w.backToList}
      </Anchor>
      <Loaded query={query}>
        {(hook: WebhookEndpoint) => (
          <Stack>
            <Group justify="space-between" wrap="wrap" align="flex-start">
              <Title order={2} size="h3" style={{ wordBreak: 'break-all' }}>
                {w.detailTitle}: {hook.url}
              </Title>
              {canWrite && (
                <Group gap="xs">
                  <Button onClick={sendTest} loading={action.busy && !deleting}>
                    {w.sendTest}
                  </Button>
                  <Button variant="default" onClick={() => setEditing(true)}>
                    {w.editEndpoint}
                  </Button>
                  <Button variant="light" color="red" onClick={() => setDeleting(true)}>
                    {w.deleteEndpoint}
                  </Button>
                </Group>
              )}
            </Group>
            {notice && (
              <Alert color="brand" role="status" withCloseButton closeButtonLabel={t.close} onClose={() => setNotice(null)}>
                {notice}
              </Alert>
            )}
            {!deleting && <ApiError error={action.error} />}
            <Card withBorder>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Fact label={w.url}>{hook.url}</Fact>
                <Fact label={w.description}>{hook.description || w.noDescription}</Fact>
                <Fact label={w.events}>{hook.event_types.join(', ')}</Fact>
                <Stack gap={0}>
                  <Text size="xs" fw={600}>
                    {w.status}
                  </Text>
                  <EndpointState endpoint={hook} />
                </Stack>
                {hook.disabled_reason && <Fact label={w.disabledReason}>{hook.disabled_reason}</Fact>}
                <Fact label={w.createdAt}>{formatDateTime(hook.created_at)}</Fact>
              </SimpleGrid>
            </Card>
            <Modal opened={editing} onClose={() => setEditing(false)} title={w.editEndpoint} size="lg">
              <WebhookForm
                initial={{ url: hook.url, event_types: hook.event_types as EventType[], description: hook.description, enabled: hook.enabled }}
                submitLabel={w.saveChanges}
                busy={edit.busy}
                error={<ApiError error={edit.error} />}
                withEnabled
                onSubmit={save}
              />
            </Modal>
            <Confirm opened={deleting} title={w.deleteTitle} text={w.deleteText} action={w.deleteEndpoint} busy={action.busy} error={<ApiError error={action.error} />} onConfirm={remove} onClose={() => setDeleting(false)} />
            <Deliveries endpointId={id} canWrite={canWrite} watching={watching} onActed={() => setWatching(true)} />
          </Stack>
        )}
      </Loaded>
    </Stack>
  );
}
