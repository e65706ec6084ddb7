import { Anchor, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { Loaded, Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { formatDate, formatTaxId } from '../../i18n/format.js';
import { useSession } from '../../session.js';
import { ArchivedBadge } from './archive-action.js';
import { CertificateBadge, ReadinessBadge } from './certificate-badge.js';
import type { Issuer } from './model.js';

const PAGE = 50;

/** On a phone, one card per issuer: the certificate's state stays in sight without scrolling sideways. */
function IssuerCards({ issuers }: { issuers: Issuer[] }) {
  return (
    <Stack hiddenFrom="sm" gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t.issuers.listLabel}>
        {issuers.map((i) => (
          <Paper key={i.id} withBorder p="sm" component="li">
            <Anchor component={Link} to={`/issuers/${i.id}`} fw={600}>
              {i.nome_fantasia ?? i.razao_social}
            </Anchor>
            <Text size="sm">
              {formatTaxId(i.cnpj)} · {i.uf} · {t.issuers.environment[i.ambiente] ?? i.ambiente}
            </Text>
            <Group gap="xs" mt={4}>
              <CertificateBadge certificate={i.certificate} />
              {i.certificate.not_after && (
                <Text size="sm">
                  {t.issuers.col.expiry}: {formatDate(i.certificate.not_after)}
                </Text>
              )}
              <ReadinessBadge issuer={i} />
              <ArchivedBadge issuer={i} />
            </Group>
          </Paper>
        ))}
    </Stack>
  );
}

export function IssuerList() {
  const session = useSession();
  const query = useInfiniteQuery({
    queryKey: ['issuers', 'list'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => orThrow(api.GET('/v1/issuers', { params: { query: { limit: PAGE, ...(pageParam ? { starting_after: pageParam } : {}) } } })),
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
  });
  return (
    <Page
      title={t.issuers.title}
      actions={
        session.can('issuers:write') && (
          <Button component={Link} to="/issuers/new">
            {t.issuers.newIssuer}
          </Button>
        )
      }
    >
      <Loaded query={query}>
        {(pages) => {
          const rows = pages.pages.flatMap((p) => p.data);
          if (rows.length === 0) return <Text>{t.issuers.empty}</Text>;
          return (
            <Stack>
              <IssuerCards issuers={rows} />
              <Table.ScrollContainer minWidth={860} visibleFrom="sm">
                <Table striped aria-label={t.issuers.listLabel}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t.issuers.col.name}</Table.Th>
                      <Table.Th>{t.issuers.col.cnpj}</Table.Th>
                      <Table.Th>{t.issuers.col.uf}</Table.Th>
                      <Table.Th>{t.issuers.col.environment}</Table.Th>
                      <Table.Th>{t.issuers.col.certificate}</Table.Th>
                      <Table.Th>{t.issuers.col.expiry}</Table.Th>
                      <Table.Th>{t.issuers.col.readiness}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((i) => (
                      <Table.Tr key={i.id}>
                        <Table.Td>
                          <Anchor component={Link} to={`/issuers/${i.id}`}>
                            {i.nome_fantasia ?? i.razao_social}
                          </Anchor>
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTaxId(i.cnpj)}</Table.Td>
                        <Table.Td>{i.uf}</Table.Td>
                        <Table.Td>{t.issuers.environment[i.ambiente] ?? i.ambiente}</Table.Td>
                        <Table.Td>
                          <CertificateBadge certificate={i.certificate} />
                        </Table.Td>
                        <Table.Td>{formatDate(i.certificate.not_after)}</Table.Td>
                        <Table.Td>
                          <ReadinessBadge issuer={i} />
                          <ArchivedBadge issuer={i} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {query.hasNextPage && (
                <Button variant="light" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} style={{ alignSelf: 'start' }}>
                  {t.more}
                </Button>
              )}
            </Stack>
          );
        }}
      </Loaded>
    </Page>
  );
}
