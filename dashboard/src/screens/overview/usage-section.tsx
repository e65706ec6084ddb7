import { BarChart } from '@mantine/charts';
import { Box, Table, Text } from '@mantine/core';
import { formatInt } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { ScrollRegion } from '../../components/scroll-table.js';
import { Section } from './section.js';
import type { Overview } from './types.js';

const w = t.overview.usage;

/** This period's usage against the plan's quota: a chart of used vs included and the same as a table. */
export function UsageSection({ usage }: { usage: NonNullable<Overview['usage']> }) {
  const rows = usage.lines.map((l) => ({ kind: t.overview.usageKinds[l.kind] ?? l.kind, used: l.used, included: l.included, line: l }));
  return (
    <Section title={w.heading} testId="overview-usage">
      <Text size="sm">
        {w.plan(usage.plan.name, usage.period)} {usage.sandbox && w.sandbox} {usage.hard_cap && w.hardCap}
      </Text>
      {/* A picture of the table below it, which is what assistive technology reads. */}
      <Box aria-hidden="true">
        <BarChart
          h={220}
          data={rows.map(({ kind, used, included }) => ({ kind, used, included }))}
          dataKey="kind"
          series={[
            { name: 'used', label: w.used, color: 'brand.7' },
            { name: 'included', label: w.included, color: 'gray.5' },
          ]}
          withLegend
          tickLine="y"
          barChartProps={{ accessibilityLayer: false }}
        />
      </Box>
      <ScrollRegion minWidth={360} label={w.tableCaption}>
        <Table striped withTableBorder>
          <Table.Caption>{w.tableCaption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{w.kind}</Table.Th>
              <Table.Th scope="col" ta="right">{w.used}</Table.Th>
              <Table.Th scope="col" ta="right">{w.included}</Table.Th>
              <Table.Th scope="col" ta="right">{w.overage}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.line.kind}>
                <Table.Th scope="row">{r.kind}</Table.Th>
                <Table.Td ta="right">
                  {formatInt(r.used)} {r.included > 0 && `(${Math.round((100 * r.used) / r.included)}% ${w.percent})`}
                </Table.Td>
                <Table.Td ta="right">{formatInt(r.included)}</Table.Td>
                <Table.Td ta="right">{formatInt(r.line.overage)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
    </Section>
  );
}
