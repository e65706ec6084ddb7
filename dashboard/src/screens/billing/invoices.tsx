import { Anchor, Badge, Group, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { Loaded } from '../../components/page.js';
import { formatDate, formatMoney } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { reais } from './types.js';
import { ScrollTable } from '../../components/scroll-table.js';

const STATUS_COLOR: Record<string, string> = { paid: 'green', open: 'yellow', void: 'gray', uncollectible: 'red' };

export function Invoices() {
  const invoices = useQuery({ queryKey: ['billing', 'invoices'], queryFn: () => orThrow(api.GET('/v1/billing/invoices', { params: { query: { limit: 24 } } })) });
  return (
    <>
      <Title order={2} size="h3">
        {t.billing.invoices}
      </Title>
      <Loaded query={invoices}>
        {(list) =>
          list.data.length === 0 ? (
            <Text size="sm">{t.billing.noInvoices}</Text>
          ) : (
            <ScrollTable minWidth={600} label={t.billing.invoices} head={[t.billing.invoicePeriod, t.billing.status, t.billing.total, t.billing.due, t.team.actions]}>
              {list.data.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>{i.period}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOR[i.status] ?? 'gray'}>
                      {t.billing.invoiceStatuses[i.status] ?? i.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatMoney(reais(i.total_cents))}</Table.Td>
                  <Table.Td>{formatDate(i.due_at)}</Table.Td>
                  <Table.Td>
                    <Group gap="sm">
                      {/* Same-origin GET: the session cookie authenticates the download. */}
                      <Anchor href={`/v1/billing/invoices/${encodeURIComponent(i.id)}/pdf`} download aria-label={t.billing.pdfOf(i.period)}>
                        {t.billing.pdf}
                      </Anchor>
                      {i.payment_url && i.status === 'open' && (
                        <Anchor href={i.payment_url} target="_blank" rel="noopener noreferrer" aria-label={t.billing.payOf(i.period)}>
                          {t.billing.pay}
                        </Anchor>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </ScrollTable>
          )
        }
      </Loaded>
    </>
  );
}
