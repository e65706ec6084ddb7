import { Alert, Anchor, Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Route, Routes } from 'react-router';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded, Page } from '../../components/page.js';
import { ScrollTable } from '../../components/scroll-table.js';
import { useAction } from '../../components/use-action.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';

const STATUS_COLOR: Record<string, string> = { queued: 'gray', building: 'blue', ready: 'green', failed: 'red', expired: 'gray' };

/** This month in Brasília time (UTC-3), the month an export is usually asked for. */
const thisMonth = () => new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 7);

const issuersQuery = () => ({ queryKey: ['issuers', 'export-picker'], queryFn: () => orThrow(api.GET('/v1/issuers', { params: { query: { limit: 100 } } })) });

function RequestExport({ onRequested }: { onRequested: () => void }) {
  const issuers = useQuery(issuersQuery());
  const [issuerId, setIssuerId] = useState<string | null>(null);
  const [month, setMonth] = useState(thisMonth());
  const { busy, error, run } = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!issuerId) return;
    const key = idempotencyKey();
    void run(async () => {
      await orThrow(api.POST('/v1/exports', { body: { issuer_id: issuerId, month }, idempotencyKey: key }));
      onRequested();
    });
  };
  const options = (issuers.data?.data ?? []).map((i) => ({ value: i.id, label: `${i.nome_fantasia ?? i.razao_social} (${i.cnpj})` }));
  return (
    <form onSubmit={submit}>
      <Stack gap="xs">
        <Group align="end" wrap="wrap">
          <Select label={t.exports.issuer} data={options} value={issuerId} onChange={setIssuerId} required searchable miw={260} />
          <TextInput label={t.exports.month} description={t.exports.monthHint} value={month} onChange={(e) => setMonth(e.currentTarget.value)} required maxLength={7} w={160} />
          <Button type="submit" loading={busy} disabled={!issuerId}>
            {t.exports.request}
          </Button>
        </Group>
        <ApiError error={error} />
      </Stack>
    </form>
  );
}


function ExportsScreen() {
  const client = useQueryClient();
  const issuers = useQuery(issuersQuery());
  const nameOf = (id: string) => {
    const i = issuers.data?.data.find((x) => x.id === id);
    return i ? (i.nome_fantasia ?? i.razao_social) : id;
  };
  const list = useQuery({
    queryKey: ['exports'],
    queryFn: () => orThrow(api.GET('/v1/exports', { params: { query: { limit: 50 } } })),
    // While one is being built its progress is read again every two seconds; none running, no polling.
    refetchInterval: (q) => (q.state.data?.data.some((e) => e.status === 'queued' || e.status === 'building') ? 2000 : false),
  });
  return (
    <Page title={t.exports.title}>
      <Text size="sm">{t.exports.intro}</Text>
      <RequestExport onRequested={() => void client.invalidateQueries({ queryKey: ['exports'] })} />
      <Loaded query={list}>
        {(p) =>
          p.data.length === 0 ? (
            <Alert color="gray">{t.exports.empty}</Alert>
          ) : (
            <ScrollTable minWidth={760} label={t.exports.title} head={[t.exports.month, t.exports.issuer, t.exports.created, 'Status', t.exports.progress, t.exports.size, '']}>
              {p.data.map((e) => (
                <Table.Tr key={e.id} data-testid="export-row">
                  <Table.Td>{e.month}</Table.Td>
                  <Table.Td>{nameOf(e.issuer_id)}</Table.Td>
                  <Table.Td>{formatDateTime(e.created_at)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOR[e.status] ?? 'gray'}>
                      {t.exports.status[e.status] ?? e.status}
                    </Badge>
                    {e.error ? (
                      <Text size="xs" c="red">
                        {e.error.message}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{e.progress.files_total === null ? '—' : `${e.progress.files_done} / ${e.progress.files_total}`}</Table.Td>
                  <Table.Td>{e.size_bytes === null ? '—' : `${(e.size_bytes / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} KB`}</Table.Td>
                  <Table.Td>
                    {e.download_url ? (
                      <Stack gap={0}>
                        <Anchor href={e.download_url} download>
                          {t.exports.download}
                        </Anchor>
                        {e.expires_at ? (
                          <Text size="xs" c="dimmed">
                            {t.exports.expires} {formatDateTime(e.expires_at)}
                          </Text>
                        ) : null}
                      </Stack>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </ScrollTable>
          )
        }
      </Loaded>
    </Page>
  );
}

export default function Exports() {
  return (
    <Routes>
      <Route index element={<ExportsScreen />} />
    </Routes>
  );
}
