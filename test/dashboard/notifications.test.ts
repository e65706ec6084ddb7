// Notifications in a real Chromium: one created on the server while the page is open appears
// without a reload (server-sent events), counted by the header's badge, then is marked read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createNotification } from '../../src/platform/notifications/notify.js';
import { bearer, verifiedUser, type Tokens } from '../support/people.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: notifications', () => {
  let w: DashboardWorld;
  let owner: Tokens & { email: string };
  beforeAll(async () => {
    w = await startDashboard();
    owner = await verifiedUser(w.t.app);
  }, 120_000);
  afterAll(async () => w?.close());

  const notify = (title: string) =>
    createNotification(w.t.ctx, {
      accountId: owner.session.account_id, type: 'webhook.disabled', title, body: 'O endpoint falhou 20 vezes seguidas e foi desativado.',
      data: {}, sourceKey: `test:${title}`, at: new Date(),
    });

  /** The page with its event stream open: what the server notifies from now on reaches it. */
  const openNotifications = async (page: Page) => {
    const streaming = page.waitForResponse((r) => r.url().endsWith('/v1/notifications/stream') && r.status() === 200);
    await page.goto(`${w.origin}/dashboard/notifications`);
    await page.getByTestId('unread-count').waitFor();
    await streaming;
  };

  it('a notification created on the server appears live, unread, and is marked read', async () => {
    const page = await w.newPage();
    await useSession(page, w.origin, owner);
    await openNotifications(page);
    await page.getByText('Nenhuma notificação.').waitFor();
    // A reload would clear this: it proves the list changed in place.
    await page.evaluate('window.stillHere = true');

    await notify('Webhook desativado');
    const item = page.getByTestId('notification').filter({ hasText: 'Webhook desativado' });
    await item.waitFor();
    expect(await item.getAttribute('data-unread')).toBe('true');
    await page.getByText('1 notificação não lida').waitFor();
    // The header's badge counts it too, live.
    expect(await page.getByTestId('unread-badge').getAttribute('aria-label')).toBe('1 notificação não lida');
    expect(await page.evaluate('window.stillHere')).toBe(true);

    await page.getByRole('button', { name: 'Marcar como lida: Webhook desativado' }).click();
    await page.getByText('0 notificações não lidas').waitFor();
    await page.getByTestId('unread-badge').waitFor({ state: 'detached' });
    const list = await w.t.app.inject({ method: 'GET', url: '/v1/notifications', headers: bearer(owner) });
    expect(list.json().data[0].read).toBe(true);
  }, 90_000);

  it('the notifications screen is accessible at desktop and phone widths', async () => {
    await notify('Certificado vence em 7 dias');
    await checkScreen(w, 'notifications', owner, async (page) => {
      await openNotifications(page);
      await page.getByTestId('notification').first().waitFor();
    });
  }, 90_000);
});
