import { Badge, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Route, Routes } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { CursorPager } from '../../components/cursor-pager.js';
import { Loaded, Page } from '../../components/page.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { AuditFilterForm, type AuditFilters } from './filters.js';
import { ScrollTable } from '../../components/scroll-table.js';

/**
 * The audit log: every mutating call, newest first, filtered as the API allows, a page
 * at a time. The cursors of the pages already seen make "previous" work without offsets.
 */
function AuditLogScreen() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors.at(-1);
  const page = useQuery({
    queryKey: ['audit-log', filters, after],
    queryFn: () => orThrow(api.GET('/v1/audit-log', { params: { query: { ...filters, limit: 25, starting_after: after } } })),
    placeholderData: keepPreviousData,
  });
  const apply = (f: AuditFilters) => {
    setFilters(f);
    setCursors([undefined]);
  };
  return (
    <Page title={t.auditLog.title}>
      <AuditFilterForm onApply={apply} />
      <Loaded query={page}>
        {(p) => (
          <>
            {p.data.length === 0 ? (
              <Text>{t.auditLog.empty}</Text>
            ) : (
              <ScrollTable minWidth={860} label={t.auditLog.title} head={[t.auditLog.time, t.auditLog.actor, t.auditLog.action, t.auditLog.target, t.auditLog.ip, t.auditLog.result]} striped>
                {p.data.map((e) => (
                  <Table.Tr key={e.id} data-testid="audit-entry">
                    <Table.Td>{formatDateTime(e.created_at)}</Table.Td>
                    <Table.Td ff="monospace">{e.actor}</Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {e.action}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {e.method} {e.route}
                      </Text>
                    </Table.Td>
                    <Table.Td ff="monospace">{e.target ?? '—'}</Table.Td>
                    <Table.Td>{e.ip ?? '—'}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={e.status_code < 400 ? 'green' : 'red'}>
                        {e.status_code}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </ScrollTable>
            )}
            <CursorPager page={cursors.length} hasPrevious={cursors.length > 1} hasMore={p.has_more} onPrevious={() => setCursors(cursors.slice(0, -1))} onNext={() => setCursors([...cursors, p.data.at(-1)?.id])} />
          </>
        )}
      </Loaded>
    </Page>
  );
}

export default function AuditLog() {
  return (
    <Routes>
      <Route index element={<AuditLogScreen />} />
    </Routes>
  );
}
