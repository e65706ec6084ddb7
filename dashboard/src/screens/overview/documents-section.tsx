import { BarChart } from '@mantine/charts';
import { Box, Paper, SegmentedControl, SimpleGrid, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { formatInt } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { ScrollRegion } from '../../components/scroll-table.js';
import { Section } from './section.js';
import type { CountLine, DocumentCounts } from './types.js';

const w = t.overview;
const STATUSES = ['authorized', 'processing', 'contingency', 'rejected', 'denied', 'canceled'] as const;
const COLORS: Record<string, string> = {
  authorized: 'teal.7', processing: 'blue.6', contingency: 'yellow.7', rejected: 'red.7', denied: 'orange.8', canceled: 'gray.6',
};

const sum = (lines: CountLine[], status?: string) => lines.filter((l) => !status || l.status === status).reduce((s, l) => s + l.count, 0);

/** Today's or this month's documents: figures, a stacked bar chart per type and the same numbers as a table. */
export function DocumentsSection({ documents }: { documents: DocumentCounts }) {
  const [period, setPeriod] = useState<'today' | 'month'>('today');
  const lines = documents[period];
  const label = period === 'today' ? w.documents.today : w.documents.month;
  const present = STATUSES.filter((s) => lines.some((l) => l.status === s));
  const rows = documents.types.map((type) => ({
    type: w.types[type] ?? type,
    ...Object.fromEntries(present.map((s) => [s, sum(lines.filter((l) => l.type === type), s)])),
  }));
  return (
    <Section title={w.documents.heading} testId="overview-documents">
      <SegmentedControl
        aria-label={w.documents.period}
        value={period}
        onChange={(v) => setPeriod(v as 'today' | 'month')}
        data={[{ value: 'today', label: w.documents.today }, { value: 'month', label: w.documents.month }]}
        w={{ base: '100%', xs: 'auto' }}
      />
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Figure label={w.documents.total} value={sum(lines)} />
        <Figure label={w.documents.authorized} value={sum(lines, 'authorized')} />
        <Figure label={w.documents.rejected} value={sum(lines, 'rejected')} />
        <Figure label={w.documents.contingency} value={sum(lines, 'contingency')} />
      </SimpleGrid>
      {lines.length === 0 ? (
        <Text>{w.documents.empty(label)}</Text>
      ) : (
        <>
          {/* The chart is a picture of the table below it, which is what assistive technology reads. */}
          <Box aria-hidden="true">
            <BarChart
              h={220}
              data={rows}
              dataKey="type"
              type="stacked"
              series={present.map((s) => ({ name: s, label: t.status[s] ?? s, color: COLORS[s] ?? 'gray.6' }))}
              withLegend
              tickLine="y"
              barChartProps={{ accessibilityLayer: false }}
            />
          </Box>
          <ScrollRegion minWidth={110 + 90 * present.length} label={w.documents.tableCaption(label)}>
            <Table striped withTableBorder>
              <Table.Caption>{w.documents.tableCaption(label)}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{w.documents.type}</Table.Th>
                  {present.map((s) => (
                    <Table.Th scope="col" key={s} ta="right">{t.status[s] ?? s}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.type}>
                    <Table.Th scope="row">{r.type}</Table.Th>
                    {present.map((s) => (
                      <Table.Td key={s} ta="right">{formatInt((r as Record<string, number | string>)[s] as number)}</Table.Td>
                    ))}
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

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="sm">{label}</Text>
      <Text fw={700} size="xl" data-testid={`figure-${label}`}>{formatInt(value)}</Text>
    </Paper>
  );
}
