import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { formatDate, formatMoney } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { reais, type Subscription } from './types.js';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{children}</Text>
    </Stack>
  );
}

/** Plan, status, period, overage and the next invoice's estimate. */
export function PlanSummary({ sub }: { sub: Subscription }) {
  const next = sub.next_invoice;
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" data-testid="plan-name">
            {t.billing.planName(sub.plan.name)}
          </Title>
          <Badge color={sub.status === 'past_due' ? 'red' : 'green'} variant="light">
            {t.billing.statuses[sub.status] ?? sub.status}
          </Badge>
        </Group>
        {sub.sandbox && <Alert color="yellow">{t.billing.sandboxNote}</Alert>}
        {sub.grace_ends_at && <Alert color="red">{t.billing.pastDue(formatDate(sub.grace_ends_at))}</Alert>}
        {sub.pending_change && <Alert color="blue">{t.billing.pendingChange(sub.pending_change.to_plan, formatDate(sub.pending_change.effective_at))}</Alert>}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Fact label={t.billing.plan}>{t.billing.perMonth(formatMoney(reais(sub.plan.monthly_price_cents)))}</Fact>
          <Fact label={t.billing.period}>{t.billing.periodRange(formatDate(sub.current_period.start), formatDate(sub.current_period.end))}</Fact>
          <Fact label={t.billing.overageTotal}>{formatMoney(reais(sub.overage_cents))}</Fact>
        </SimpleGrid>
        <Title order={3} size="h4">
          {t.billing.nextInvoice}
        </Title>
        {next ? (
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Fact label={t.billing.planCharge}>{formatMoney(reais(next.plan_cents))}</Fact>
            <Fact label={t.billing.proration}>{formatMoney(reais(next.proration_cents))}</Fact>
            <Fact label={t.billing.overage}>{formatMoney(reais(next.overage_cents))}</Fact>
            <Fact label={t.billing.estimatedTotal}>{formatMoney(reais(next.estimated_total_cents))}</Fact>
          </SimpleGrid>
        ) : (
          <Text size="sm">{t.billing.noNextInvoice}</Text>
        )}
      </Stack>
    </Card>
  );
}
