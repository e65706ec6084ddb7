import { CursorPager } from '../../components/cursor-pager.js';
import { Anchor, Button, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Loaded, Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { formatDateTime, formatMoney } from '../../i18n/format.js';
import { useSession } from '../../session.js';
import { summarize, type Family } from './families.js';
import { FamilyNav } from './family-nav.js';
import { ListFilters, NO_FILTERS, toQuery, type Filters } from './list-filters.js';
import { SearchBox } from './search-box.js';
import { StatusBadge } from './status-badge.js';
import { useIssuers, useNoteList } from './use-notes.js';

const PAGE_SIZE = 20;

/** One family's notes, newest first, filtered, a page at a time (cursor: the last id of the page before). */
export function DocumentList({ family }: { family: Family }) {
  const session = useSession();
  // The filters live in the address (?status=rejected...): a filtered list can be linked to, as the
  // overview's rejection causes do, and the browser's back button returns to it.
  const [params, setParams] = useSearchParams();
  const filters = { ...NO_FILTERS, ...Object.fromEntries(Object.keys(NO_FILTERS).map((k) => [k, params.get(k) ?? ''])) } as Filters;
  const setFilters = (f: Filters) => setParams(Object.fromEntries(Object.entries(f).filter(([, v]) => v !== '')));
  // The cursors of the pages before this one: going back pops one.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const list = useNoteList(family, { ...toQuery(filters), limit: PAGE_SIZE, ...(cursor ? { starting_after: cursor } : {}) });
  const issuers = useIssuers();
  const issuerList = (issuers.data?.data ?? []).map((i) => ({ id: i.id, name: i.nome_fantasia ?? i.razao_social }));
  const issuerName = (id: string) => issuerList.find((i) => i.id === id)?.name ?? id;
  const actions = session.can('nfce:write') ? (
    <Button component={Link} to="/documents/nfce/new">
      {t.documents.newNfce}
    </Button>
  ) : undefined;
  return (
    <Page title={t.documents.title} actions={actions}>
      <FamilyNav current={family} />
      <SearchBox />
      <ListFilters
        key={`${family}?${params.toString()}`}
        family={family}
        issuers={issuerList}
        value={filters}
        onApply={(f) => {
          setFilters(f);
          setCursors([]);
        }}
      />
      <Loaded query={list}>
        {(page) => (
          <>
            {page.data.length === 0 ? (
              <Text>{t.documents.empty}</Text>
            ) : (
              <Table.ScrollContainer minWidth={720}>
                <Table striped highlightOnHover data-testid="documents-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t.documents.columns.number}</Table.Th>
                      <Table.Th scope="col">{t.documents.columns.issuer}</Table.Th>
                      <Table.Th scope="col">{t.documents.columns.customer}</Table.Th>
                      <Table.Th scope="col">{t.documents.columns.total}</Table.Th>
                      <Table.Th scope="col">{t.documents.columns.status}</Table.Th>
                      <Table.Th scope="col">{t.documents.columns.created}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {page.data.map((note) => {
                      const s = summarize(note);
                      return (
                        <Table.Tr key={note.id}>
                          <Table.Td>
                            <Anchor component={Link} to={`/documents/${family}/${note.id}`}>
                              {t.documents.numberSerie(s.number, s.serie)}
                            </Anchor>
                          </Table.Td>
                          <Table.Td>{issuerName(note.issuer_id)}</Table.Td>
                          <Table.Td>{s.customer?.name ?? '—'}</Table.Td>
                          <Table.Td>{formatMoney(s.total)}</Table.Td>
                          <Table.Td>
                            <StatusBadge status={note.status} />
                          </Table.Td>
                          <Table.Td>{formatDateTime(note.created_at)}</Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <CursorPager size="xs" page={cursors.length + 1} hasPrevious={cursors.length > 0} hasMore={page.has_more} onPrevious={() => setCursors(cursors.slice(0, -1))} onNext={() => setCursors([...cursors, page.data.at(-1)!.id])} />
          </>
        )}
      </Loaded>
    </Page>
  );
}
