// The team screens in a real Chromium: an owner invites a viewer from the UI, the viewer signs up
// with the invited e-mail and accepts through the mailed link, then sees a menu without billing or
// audit and a team page without the owner's actions; the owner changes the viewer's role, and the
// audit log lists the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFromMail, verifiedUser, type Tokens } from '../support/people.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';
import type { Page } from 'playwright-core';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: team, roles and the audit log', () => {
  let w: DashboardWorld;
  let owner: Tokens & { email: string };
  beforeAll(async () => {
    w = await startDashboard();
    owner = await verifiedUser(w.t.app);
  }, 120_000);
  afterAll(async () => w?.close());

  const openTeam = async (page: Page) => {
    await page.goto(`${w.origin}/dashboard/team`);
    await page.getByRole('heading', { name: 'Membros' }).waitFor();
    await page.getByRole('cell', { name: owner.email, exact: true }).waitFor();
  };

  it('invites a viewer who accepts through the mailed link and reaches only what a viewer may', async () => {
    const page = await w.newPage();
    await useSession(page, w.origin, owner);
    await openTeam(page);
    const inviteeEmail = `viewer.${Date.now()}@example.com`;
    await page.getByLabel('E-mail').fill(inviteeEmail);
    await page.getByRole('button', { name: 'Convidar' }).click();
    await page.getByText(`Convite enviado para ${inviteeEmail}.`).waitFor();
    await page.getByRole('cell', { name: inviteeEmail, exact: true }).waitFor();
    await page.getByRole('button', { name: `Revogar convite para ${inviteeEmail}` }).waitFor();

    // The invitee signs up with the invited address and confirms it, then reads the invite in their
    // own captured mail (sandbox; the inviting team sees its link redacted).
    const invitee = await verifiedUser(w.t.app, inviteeEmail);
    const token = await tokenFromMail(w.t.app, invitee.session_token, /^Convite/, 'inv');
    const viewerPage = await w.newPage();
    await useSession(viewerPage, w.origin, invitee);
    await viewerPage.goto(`${w.origin}/dashboard/accept-invite?token=${token}`);
    await viewerPage.getByRole('button', { name: 'Aceitar convite' }).click();
    await viewerPage.getByTestId('whoami').getByText('Leitor').waitFor();

    const menu = viewerPage.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('link', { name: 'Equipe' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Cobrança' }).count()).toBe(0);
    expect(await menu.getByRole('link', { name: 'Auditoria' }).count()).toBe(0);
    await menu.getByRole('link', { name: 'Equipe' }).click();
    await viewerPage.getByRole('cell', { name: owner.email, exact: true }).waitFor();
    expect(await viewerPage.getByRole('button', { name: 'Convidar' }).count()).toBe(0);
    expect(await viewerPage.getByRole('button', { name: /^Remover/ }).count()).toBe(0);
    expect(await viewerPage.getByRole('combobox', { name: /^Papel de/ }).count()).toBe(0);
    // Typed by hand, the billing address shows the refusal, not the page.
    await viewerPage.goto(`${w.origin}/dashboard/billing`);
    await viewerPage.getByRole('heading', { name: 'Seu papel não permite ver esta página.' }).waitFor();

    // The owner now sees the viewer and changes the role to developer.
    await openTeam(page);
    const role = page.getByRole('combobox', { name: 'Papel de Ana Souza' });
    expect(await role.inputValue()).toBe('Leitor');
    await role.click();
    await page.getByRole('option', { name: 'Desenvolvedor' }).click();
    await expect.poll(async () => {
      const r = await w.t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(owner) });
      return (r.json().data as { email: string; role: string }[]).find((m) => m.email === inviteeEmail)?.role;
    }).toBe('developer');
    await expect.poll(() => role.inputValue()).toBe('Desenvolvedor');

    // The audit log lists the change, found by its action.
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Auditoria' }).click();
    await page.getByLabel('Ação').fill('team.members.role');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.getByTestId('audit-entry').getByText('team.members.role.update').waitFor();
    await page.getByTestId('audit-entry').getByText(invitee.session.user_id).first().waitFor();
  }, 90_000);

  it('revokes a pending invite and removes a member, each after a confirmation', async () => {
    const page = await w.newPage();
    await useSession(page, w.origin, owner);
    await openTeam(page);
    const email = `pending.${Date.now()}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    // An accountant: the role the owner picks is the one invited.
    await page.getByRole('combobox', { name: 'Papel', exact: true }).click();
    await page.getByRole('option', { name: 'Contador(a)' }).click();
    await page.getByRole('button', { name: 'Convidar' }).click();
    await page.getByRole('cell', { name: 'Contador(a)', exact: true }).waitFor();
    const sent = await w.t.app.inject({ method: 'GET', url: '/v1/team/invites', headers: bearer(owner) });
    expect((sent.json().data as { email: string; role: string }[]).find((i) => i.email === email)?.role).toBe('accountant');
    await page.getByRole('button', { name: `Revogar convite para ${email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('cell', { name: email, exact: true }).waitFor({ state: 'detached' });
    const invites = await w.t.app.inject({ method: 'GET', url: '/v1/team/invites', headers: bearer(owner) });
    expect((invites.json().data as { email: string }[]).map((i) => i.email)).not.toContain(email);

    // The member who joined in the first test (now a developer) is removed.
    await page.getByRole('button', { name: 'Remover Ana Souza' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('button', { name: 'Remover Ana Souza' }).waitFor({ state: 'detached' });
    const members = await w.t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(owner) });
    expect((members.json().data as { email: string }[]).map((m) => m.email)).toEqual([owner.email]);
  }, 60_000);

  it('team and audit-log screens are accessible at desktop and phone widths', async () => {
    await checkScreen(w, 'team', owner, openTeam);
    await checkScreen(w, 'audit-log', owner, async (page) => {
      await page.goto(`${w.origin}/dashboard/audit-log`);
      await page.getByTestId('audit-entry').first().waitFor();
    });
  }, 90_000);
});
