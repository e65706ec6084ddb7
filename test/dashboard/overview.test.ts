// The overview (home page) in a real Chromium against a gateway with its worker: NFC-e issued in the
// sandbox through the API (authorized, and refused with the scenario header) show up as today's
// counts and the top rejection cause, which leads to the rejected documents; a billing member sees
// usage and no documents; an account with nothing yet reads empty states in words.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitSettled, readyIssuer, sale } from '../support/nfce-flow.js';
import { bearer, verifiedUser, type Tokens } from '../support/people.js';
import { joinTeam } from '../support/team.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: overview', () => {
  let w: DashboardWorld;
  let owner: Tokens;
  let issuerId: string;

  beforeAll(async () => {
    w = await startDashboard({ role: 'all' });
    owner = await verifiedUser(w.t.app);
    const auth = bearer(owner);
    issuerId = await readyIssuer(w.t, auth);
    const issue = async (scenario?: string) => (await emitSettled(w.t, auth, sale(issuerId), scenario ? { 'x-sandbox-scenario': scenario } : {})).note.status;
    expect([await issue(), await issue()]).toEqual(['authorized', 'authorized']);
    expect([await issue('reject:778'), await issue('reject:778'), await issue('reject:539')]).toEqual(['rejected', 'rejected', 'rejected']);
  }, 120_000);
  afterAll(async () => w?.close());

  async function overview(page: Page, tokens: Tokens) {
    await useSession(page, w.origin, tokens);
    await page.goto(`${w.origin}/dashboard/`);
    await page.getByRole('heading', { name: 'Visão geral', level: 1 }).waitFor();
  }
  const figure = (page: Page, label: string) => page.getByTestId(`figure-${label}`).textContent();

  it("shows today's counts, the table behind the chart, latency and the top rejection cause linking to the rejected notes", async () => {
    const page = await w.newPage();
    await overview(page, owner);
    const documents = page.getByTestId('overview-documents');
    await documents.getByRole('table').waitFor();
    expect(await figure(page, 'Emitidos')).toBe('5');
    expect(await figure(page, 'Autorizados')).toBe('2');
    expect(await figure(page, 'Rejeitados')).toBe('3');
    const row = documents.getByRole('row', { name: /NFC-e/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['2', '3']);
    // This month holds today's notes too.
    await page.getByText('Este mês', { exact: true }).click();
    await documents.getByRole('table', { name: /Este mês/ }).waitFor();
    expect(Number(await figure(page, 'Emitidos'))).toBeGreaterThanOrEqual(5);

    await page.getByTestId('overview-latency').getByText('Mediana (p50)').waitFor();
    const causes = page.getByTestId('overview-rejections');
    const first = causes.getByRole('row').nth(1);
    expect(await first.getByRole('cell').first().textContent()).toBe('778');
    expect(await first.getByRole('cell').last().textContent()).toBe('2');
    await causes.getByText('3 rejeições neste mês.').waitFor();
    const link = first.getByRole('link', { name: 'Ver NFC-e rejeitadas' });
    expect(await link.getAttribute('href')).toBe('/dashboard/documents/nfce?status=rejected');
    await page.getByTestId('overview-contingency').getByText('Nenhuma nota em contingência.').waitFor();
    await page.getByTestId('overview-certificates').waitFor();
    await page.getByTestId('overview-usage').getByRole('table', { name: 'Uso em relação à cota' }).waitFor();
    await link.click();
    await page.waitForURL(/\/dashboard\/documents\/nfce\?status=rejected$/);
    // The list opens filtered: the status chosen in its form, and only the 3 rejected notes listed.
    await expect.poll(() => page.getByLabel('Situação').inputValue()).toBe('rejected');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Rejeitada' }).count()).toBe(3);
    expect(await page.getByRole('row').filter({ hasText: 'Autorizada' }).count()).toBe(0);
  });

  it('gives a billing member usage alone, and an account with nothing yet empty states in words', async () => {
    const billing = await joinTeam(w.t.app, owner, 'billing');
    const page = await w.newPage();
    await overview(page, billing);
    await page.getByTestId('overview-usage').waitFor();
    expect(await page.getByTestId('overview-documents').count()).toBe(0);
    await page.getByText('Algumas seções não aparecem porque seu papel não permite vê-las.').waitFor();

    const fresh = await verifiedUser(w.t.app);
    const empty = await w.newPage();
    await overview(empty, fresh);
    await empty.getByText('Nenhum documento emitido (hoje).').waitFor();
    await empty.getByText('Nenhuma rejeição neste mês.').waitFor();
    await empty.getByText('Nenhuma nota autorizada hoje ainda.').waitFor();
    await empty.getByText('Nenhum certificado vence nos próximos 30 dias.').waitFor();
  });

  it('marks a contingency deadline near and lists an expiring certificate with a link to its issuer', async () => {
    const now = Date.now();
    // One of the rejected notes stands in for a sale waiting in offline contingency (the autopilot's own
    // path is nfce-contingency.test.ts's): what the overview reads is the status and the deadline.
    const db = w.t.db;
    const note = (await db.query<{ id: string }>(`SELECT id FROM notes WHERE issuer_id = $1 AND status = 'rejected' ORDER BY id LIMIT 1`, [issuerId])).rows[0]!;
    await db.query(
      `UPDATE notes SET status = 'contingency', number = 900001, contingency = jsonb_build_object('entered_at', $2::text, 'deadline_at', $3::text) WHERE id = $1`,
      [note.id, new Date(now - 22 * 3_600_000).toISOString(), new Date(now + 2 * 3_600_000).toISOString()],
    );
    await db.query('UPDATE issuer_certificates SET not_after = $2 WHERE issuer_id = $1', [issuerId, new Date(now + 10 * 86_400_000 + 3_600_000)]);
    const page = await w.newPage();
    await overview(page, owner);
    const contingency = page.getByTestId('overview-contingency');
    await contingency.getByText('1 nota aguardando transmissão à autoridade.').waitFor();
    const link = contingency.getByRole('link', { name: /^NFC-e nº 900001 série/ });
    expect(await link.getAttribute('href')).toBe(`/dashboard/documents/nfce/${note.id}`);
    await contingency.getByText('Prazo próximo').waitFor();
    const certificates = page.getByTestId('overview-certificates');
    await certificates.getByText('10 dias').waitFor();
    expect(await certificates.getByRole('link').getAttribute('href')).toBe(`/dashboard/issuers/${issuerId}`);
  });

  it('is accessible and fits a phone', async () => {
    await checkScreen(w, 'overview', owner, async (page) => {
      await page.goto(`${w.origin}/dashboard/`);
      await page.getByTestId('overview-documents').getByRole('table').waitFor();
      await page.getByTestId('overview-usage').getByRole('table').waitFor();
    });
  });
});
