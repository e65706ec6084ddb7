import { Alert, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PLAN_IDS, PLANS, type PlanId } from '../../../../src/platform/billing/plans.js';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { useStepUp } from '../../components/step-up.js';
import { formatDate, formatMoney } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { reais, type Subscription } from './types.js';

const OPTIONS = PLAN_IDS.map((id) => ({ value: id, label: `${PLANS[id].name} · ${t.billing.perMonth(formatMoney(reais(PLANS[id].monthly_price_cents)))}` }));

/**
 * Upgrade or downgrade in two steps: the gateway's proration preview (nothing changes), then the
 * change itself with one Idempotency-Key per confirmation, so a retry never changes the plan twice.
 */
export function ChangePlan({ sub }: { sub: Subscription }) {
  const stepUp = useStepUp();
  const client = useQueryClient();
  const [plan, setPlan] = useState<PlanId | null>(null);
  const [key, setKey] = useState(idempotencyKey);
  const call = (preview: boolean) => stepUp(() => orThrow(api.POST('/v1/billing/upgrade', { body: { plan: plan ?? '', preview }, idempotencyKey: preview ? false : key })));
  const preview = useMutation({ mutationFn: () => call(true) });
  const confirm = useMutation({
    mutationFn: () => call(false),
    onSuccess: async () => {
      setKey(idempotencyKey());
      preview.reset();
      await client.invalidateQueries({ queryKey: ['billing'] });
    },
  });
  const choose = (p: string | null) => {
    setPlan(p as PlanId | null);
    preview.reset();
    confirm.reset();
  };
  const p = preview.data;
  const done = confirm.data;
  return (
    <Stack>
      <Title order={2} size="h3">
        {t.billing.changePlan}
      </Title>
      <Group align="flex-end" wrap="wrap">
        <Select label={t.billing.newPlan} data={OPTIONS.filter((o) => o.value !== sub.plan.id)} value={plan} onChange={choose} w={{ base: '100%', sm: 320 }} />
        <Button variant="light" disabled={!plan} loading={preview.isPending} onClick={() => preview.mutate()}>
          {t.billing.preview}
        </Button>
      </Group>
      {p && (
        <Alert color="blue" role="status" data-testid="plan-preview">
          <Text size="sm">
            {p.kind === 'upgrade'
              ? t.billing.previewUpgrade(PLANS[p.to_plan].name, formatMoney(reais(p.proration.amount_cents)))
              : t.billing.previewDowngrade(PLANS[p.to_plan].name, formatDate(p.effective_at))}
          </Text>
          {!p.proration.billed && <Text size="sm">{t.billing.notBilled}</Text>}
          <Button mt="sm" loading={confirm.isPending} onClick={() => confirm.mutate()}>
            {t.billing.confirmChange}
          </Button>
        </Alert>
      )}
      {done && (
        <Alert color="green" role="status">
          {done.kind === 'upgrade' ? t.billing.changed(PLANS[done.to_plan].name) : t.billing.scheduled(PLANS[done.to_plan].name, formatDate(done.effective_at))}
        </Alert>
      )}
      <ApiError error={preview.error ?? confirm.error} />
    </Stack>
  );
}
