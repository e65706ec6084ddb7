import { BarChart } from '@mantine/charts';
import { Table, Title } from '@mantine/core';
import { formatInt, formatMoney } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { reais, type Subscription } from './types.js';
import { ScrollTable } from '../../components/scroll-table.js';

/**
 * Included against used documents per type: a chart for the eye and, with the same numbers, a
 * table (the chart is hidden from screen readers, which read the table).
 */
export function Usage({ usage }: { usage: Subscription['usage'] }) {
  const data = usage.map((u) => ({ kind: t.billing.kinds[u.kind] ?? u.kind, [t.billing.included]: u.included, [t.billing.used]: u.used }));
  return (
    <>
      <Title order={2} size="h3">
        {t.billing.usage}
      </Title>
      <div aria-hidden="true" data-testid="usage-chart">
        <BarChart
          h={240}
          data={data}
          dataKey="kind"
          withLegend
          // Hidden from assistive technology (the table reads the same numbers): nothing in it takes focus.
          barChartProps={{ accessibilityLayer: false }}
          series={[
            { name: t.billing.included, color: 'gray.5' },
            { name: t.billing.used, color: 'brand.7' },
          ]}
        />
      </div>
      <ScrollTable minWidth={480} label={t.billing.usageChart} head={[t.billing.kind, t.billing.included, t.billing.used, t.billing.overage]}>
        {usage.map((u) => (
          <Table.Tr key={u.kind}>
            <Table.Td>{t.billing.kinds[u.kind] ?? u.kind}</Table.Td>
            <Table.Td>{formatInt(u.included)}</Table.Td>
            <Table.Td>{formatInt(u.used)}</Table.Td>
            <Table.Td>
              {formatInt(u.overage)} ({formatMoney(reais(u.overage_cents))})
            </Table.Td>
          </Table.Tr>
        ))}
      </ScrollTable>
    </>
  );
}
