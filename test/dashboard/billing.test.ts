// The billing screen in a real Chromium: plan, status and the usage chart with its table; an
// upgrade shown first as the gateway's proration preview, then confirmed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bearer, verifiedUser, type Tokens } from '../support/people.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: billing', () => {
  let w: DashboardWorld;
  let owner: Tokens & { email: string };
  beforeAll(async () => {
    w = await startDashboard();
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
    await page.getByRole('button', { name: 'Ver prévia da mudança' }).click();
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
