import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { Loaded, Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { ChangePlan } from './change-plan.js';
import { Invoices } from './invoices.js';
import { PlanSummary } from './plan-summary.js';
import { Usage } from './usage.js';

/** Billing: plan, usage against it, invoices, and plan changes for billing:write. */
function BillingScreen() {
  const session = useSession();
  const sub = useQuery({ queryKey: ['billing', 'subscription'], queryFn: () => orThrow(api.GET('/v1/billing/subscription')) });
  return (
    <Page title={t.billing.title}>
      <Loaded query={sub}>
        {(s) => (
          <Stack gap="lg">
            <PlanSummary sub={s} />
            <Usage usage={s.usage} />
            {session.can('billing:write') && <ChangePlan sub={s} />}
            <Invoices />
          </Stack>
        )}
      </Loaded>
    </Page>
  );
}

export default function Billing() {
  return (
    <Routes>
      <Route index element={<BillingScreen />} />
    </Routes>
  );
}
