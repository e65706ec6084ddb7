// The billing screen in a real Chromium: plan, status and the usage chart with its table; an
// upgrade shown first as the gateway's proration preview, then confirmed. The sign-in is 11
// minutes old by then (a clock the test moves), so the gateway asks for a step-up first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bearer, PASSWORD, verifiedUser, type Tokens } from '../support/people.js';
import { ManualClock } from '../support/clock.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: billing', () => {
  let w: DashboardWorld;
  let owner: Tokens & { email: string };
  const clock = new ManualClock(new Date());
  beforeAll(async () => {
    w = await startDashboard({ clock });
    owner = await verifiedUser(w.t.app);
  }, 120_000);
  afterAll(async () => w?.close());

  const openBilling = async (page: Page) => {
    await page.goto(`${w.origin}/dashboard/billing`);
    await page.getByTestId('plan-name').waitFor();
    await page.getByTestId('usage-chart').locator('svg').first().waitFor();
  };

  it('shows the plan and its usage, previews an upgrade\'s proration and makes it', async () => {
    const page = await w.newPage();
    await useSession(page, w.origin, owner);
    await openBilling(page);
    expect(await page.getByTestId('plan-name').textContent()).toBe('Plano Free');
    await page.getByText('Conta sandbox: nunca é cobrada').waitFor();
    // The chart's numbers, readable as a table: NFC-e, 100 included, none used.
    const nfce = page.getByRole('row', { name: /^NFC-e/ });
    expect((await nfce.getByRole('cell').allTextContents()).slice(0, 3)).toEqual(['NFC-e', '100', '0']);

    await page.getByRole('textbox', { name: 'Novo plano' }).or(page.getByRole('combobox', { name: 'Novo plano' })).click();
    await page.getByRole('option', { name: /^Starter/ }).click();
    // Plan changes need a proof within 10 minutes: the dialog asks for the password, then the preview runs.
    clock.advance(11 * 60_000);
    await page.getByRole('button', { name: 'Ver prévia da mudança' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirme que é você' });
    await stepUp.getByLabel('Senha').fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirmar', exact: true }).click();
    await page.getByTestId('plan-preview').getByText(/^Upgrade para Starter agora/).waitFor();
    // A preview changes nothing.
    const before = await w.t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: bearer(owner) });
    expect(before.json().plan.id).toBe('free');
    await page.getByRole('button', { name: 'Confirmar mudança de plano' }).click();
    await page.getByText('Plano alterado para Starter.').waitFor();
    await expect.poll(async () => (await page.getByTestId('plan-name').textContent())).toBe('Plano Starter');
    const after = await w.t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: bearer(owner) });
    expect(after.json().plan.id).toBe('starter');
  }, 90_000);

  it('the billing screen is accessible at desktop and phone widths', async () => {
    await checkScreen(w, 'billing', owner, openBilling);
  }, 90_000);
});
