import { Anchor, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatInt } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { ScrollRegion } from '../../components/scroll-table.js';
import { Section } from './section.js';
import type { Overview } from './types.js';

const w = t.overview.rejections;

/** This month's most frequent rejection causes, each leading to the rejected documents of its types. */
export function RejectionsSection({ rejections }: { rejections: NonNullable<Overview['rejections']> }) {
  return (
    <Section title={w.heading} testId="overview-rejections">
      {rejections.top.length === 0 ? (
        <Text>{w.empty}</Text>
      ) : (
        <>
          <Text size="sm">{w.total(rejections.month_total)}</Text>
          <ScrollRegion minWidth={340} label={w.heading}>
            <Table withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{w.code}</Table.Th>
                  <Table.Th scope="col">{w.message}</Table.Th>
                  <Table.Th scope="col" ta="right">{w.count}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rejections.top.map((c) => (
                  <Table.Tr key={c.code}>
                    <Table.Td ff="monospace">{c.code}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{c.message}</Text>
                      <Group gap="sm" mt={4}>
                        {c.types.map((type) => (
                          <Anchor key={type} component={Link} to={`/documents/${type}?status=rejected`} size="sm">
                            {w.see(t.overview.types[type] ?? type)}
                          </Anchor>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right">{formatInt(c.count)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        </>
      )}
    </Section>
  );
}
