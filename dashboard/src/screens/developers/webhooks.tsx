import { Anchor, Badge, Modal, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useAction } from '../../components/use-action.js';
import type { WebhookEndpoint } from './contract.js';
import { usePaged } from './paged.js';
import { PagedTable } from './data-table.js';
import { ListIntro } from './section.js';
import { SecretOnce } from './secret-once.js';
import { WebhookForm, type WebhookFields } from './webhook-form.js';

export const WEBHOOKS = ['developers', 'webhooks'];
const w = t.developers.webhooks;

/** On, or off with the reason; failing since when. */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <Stack gap={2}>
      <Badge color={endpoint.enabled ? 'brand' : 'gray'} variant="light">
        {endpoint.enabled ? w.active : w.disabled}
      </Badge>
      {endpoint.failing_since && <Text size="xs">{w.failingSince(formatDateTime(endpoint.failing_since))}</Text>}
    </Stack>
  );
}

export default function Webhooks() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const paged = usePaged<WebhookEndpoint>(WEBHOOKS, (after) => orThrow(api.GET('/v1/webhooks', { params: { query: { limit: 50, starting_after: after } } })));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const { busy, error, run } = useAction();
  const create = (fields: WebhookFields) => {
    const key = idempotencyKey();
    void run(async () => {
      const body = { url: fields.url, event_types: fields.event_types, ...(fields.description ? { description: fields.description } : {}) };
      const hook = await orThrow(api.POST('/v1/webhooks', { body, idempotencyKey: key }));
      setCreating(false);
      setCreated({ id: hook.id, secret: hook.secret });
      await client.invalidateQueries({ queryKey: WEBHOOKS });
    });
  };
  const closeSecret = () => {
    const id = created?.id;
    setCreated(null);
    if (id) navigate(`/developers/webhooks/${id}`);
  };

  return (
    <Stack>
      <ListIntro text={w.intro} action={w.newEndpoint} onAction={() => setCreating(true)} />
      <PagedTable
        paged={paged}
        empty={w.empty}
        minWidth={720}
        label={w.title}
        headers={[w.endpoint, w.events, w.status, w.createdAt]}
        row={(h) => (
          <Table.Tr key={h.id}>
            <Table.Td>
              <Anchor component={Link} to={`/developers/webhooks/${h.id}`} style={{ wordBreak: 'break-all' }}>
                {h.url}
              </Anchor>
              <Text size="xs">{h.description || w.noDescription}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{h.event_types.join(', ')}</Text>
            </Table.Td>
            <Table.Td>
              <EndpointState endpoint={h} />
            </Table.Td>
            <Table.Td>{formatDateTime(h.created_at)}</Table.Td>
          </Table.Tr>
        )}
      />
      <Modal opened={creating} onClose={() => setCreating(false)} title={w.newEndpoint} size="lg">
        <WebhookForm
          initial={{ url: '', event_types: [], description: '', enabled: true }}
          submitLabel={w.createEndpoint}
          busy={busy}
          error={<ApiError error={error} />}
          withEnabled={false}
          onSubmit={create}
        />
      </Modal>
      <SecretOnce title={w.created} label={w.secretLabel} secret={created?.secret ?? null} onClose={closeSecret} />
    </Stack>
  );
}
