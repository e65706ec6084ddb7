import { Badge, Button, Code, Group, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useAction } from '../../components/use-action.js';
import type { Attempt, Delivery } from './contract.js';
import { usePaged } from './paged.js';
import { Section } from './section.js';
import { DataTable, PagedTable } from './data-table.js';

const d = t.developers.deliveries;
const STATE_COLOR: Record<string, string> = { pending: 'blue', succeeded: 'brand', failed: 'red', canceled: 'gray' };

export const deliveriesKey = (id: string) => ['developers', 'webhooks', id, 'deliveries'];

function Attempts({ attempts, label }: { attempts: Attempt[]; label: string }) {
  if (attempts.length === 0) return <Text size="sm">{d.noAttempts}</Text>;
  return (
    <DataTable minWidth={760} label={label} striped={false} withTableBorder verticalSpacing="xs"
      headers={[d.attempt, d.trigger, d.attemptedAt, d.statusCode, d.latency, d.error, d.response, d.nextRetry]}>
      {attempts.map((a) => (
        <Table.Tr key={a.attempt}>
          <Table.Td>{a.attempt}</Table.Td>
          <Table.Td>{d.triggers[a.trigger] ?? a.trigger}</Table.Td>
          <Table.Td>{formatDateTime(a.attempted_at)}</Table.Td>
          <Table.Td>{a.status_code ?? d.noAnswer}</Table.Td>
          <Table.Td>{d.ms(a.latency_ms)}</Table.Td>
          <Table.Td>{a.error ?? '—'}</Table.Td>
          <Table.Td>{a.response_excerpt ? <Code style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{a.response_excerpt}</Code> : '—'}</Table.Td>
          <Table.Td>{formatDateTime(a.next_retry_at)}</Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}

/**
 * The endpoint's delivery log, newest first, each with its attempts. It refreshes itself while a
 * delivery is pending or a test/replay was just asked for, so the outcome shows without reloading.
 */
export function Deliveries({ endpointId, canWrite, watching, onActed }: { endpointId: string; canWrite: boolean; watching: boolean; onActed: () => void }) {
  const client = useQueryClient();
  const [pending, setPending] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const paged = usePaged<Delivery>(
    deliveriesKey(endpointId),
    (after) => orThrow(api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: endpointId }, query: { limit: 20, starting_after: after } } })).then((p) => {
      setPending(p.data.some((x) => x.state === 'pending'));
      return p;
    }),
    pending || watching ? 1000 : false,
  );
  const { busy, error, run } = useAction();
  const replay = (delivery: Delivery) => {
    const key = idempotencyKey();
    void run(async () => {
      await orThrow(api.POST('/v1/webhooks/{id}/deliveries/{dlvId}/replay', { params: { path: { id: endpointId, dlvId: delivery.id } }, idempotencyKey: key }));
      setOpen(delivery.id);
      onActed();
      await client.invalidateQueries({ queryKey: deliveriesKey(endpointId) });
    });
  };

  return (
    <Section title={d.title} text={d.intro}>
      <ApiError error={error} />
      <PagedTable
        paged={paged}
        empty={d.empty}
        minWidth={860}
        label={d.title}
        data-testid="deliveries"
        headers={[d.event, d.state, d.attempts, d.lastStatus, d.createdAt, d.nextAttempt, t.developers.keys.actions]}
        row={(x) => (
          <Fragment key={x.id}>
            <Table.Tr data-testid={`delivery-${x.id}`}>
              <Table.Td>
                <Text size="sm" fw={600}>{x.event_type}</Text>
                <Text size="xs" ff="monospace">{x.event_id}</Text>
              </Table.Td>
              <Table.Td>
                <Badge color={STATE_COLOR[x.state] ?? 'gray'} variant="light" data-testid="delivery-state">
                  {d.states[x.state] ?? x.state}
                </Badge>
              </Table.Td>
              <Table.Td data-testid="delivery-attempts">{x.attempts.length}</Table.Td>
              <Table.Td>{x.last_status_code ?? '—'}</Table.Td>
              <Table.Td>{formatDateTime(x.created_at)}</Table.Td>
              <Table.Td>{formatDateTime(x.next_attempt_at)}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="default" aria-expanded={open === x.id} aria-label={d.details(x.event_type)} onClick={() => setOpen(open === x.id ? null : x.id)}>
                    {d.attempts}
                  </Button>
                  {canWrite && (
                    <Button size="xs" variant="light" loading={busy} aria-label={d.replay(x.event_type)} onClick={() => replay(x)}>
                      {d.replayShort}
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
            {open === x.id && (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Attempts attempts={x.attempts} label={d.details(x.event_type)} />
                </Table.Td>
              </Table.Tr>
            )}
          </Fragment>
        )}
      />
    </Section>
  );
}
