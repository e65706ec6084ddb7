// The accountant's exports screen in a real Chromium (docs/guides/accountant.md): an accountant member picks
// the issuer and the month, asks for the ZIP, watches it get built (the list polls while it runs) and
// downloads it; the ZIP holds the month's authorized NFC-e, read with Info-ZIP unzip. At desktop and phone
// width the screen is accessible and never scrolls sideways.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitSettled, readyIssuer, sale } from '../support/nfce-flow.js';
import { bearer, verifiedUser, type Tokens } from '../support/people.js';
import { joinTeam, signInTo } from '../support/team.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: exports', () => {
  let w: DashboardWorld;
  let accountant: Tokens;
  let issuerId: string;
  let accessKey: string;

  beforeAll(async () => {
    w = await startDashboard({ role: 'all' });
    const owner = await verifiedUser(w.t.app);
    issuerId = await readyIssuer(w.t, bearer(owner));
    accessKey = (await emitSettled(w.t, bearer(owner), sale(issuerId))).note.access_key;
    const member = await joinTeam(w.t.app, owner, 'accountant');
    accountant = { ...member, ...(await signInTo(w.t.app, member.email, owner.session.account_id)) } as Tokens;
  }, 120_000);
  afterAll(async () => w?.close());

  it('an accountant asks for the month, sees it built and downloads a ZIP holding the note', async () => {
    const page = await w.newPage();
    await useSession(page, w.origin, accountant);
    await page.goto(`${w.origin}/dashboard/`);
    await page.getByRole('link', { name: 'Exportações' }).first().click();
    await page.getByRole('heading', { name: 'Exportações', level: 1 }).waitFor();
    await page.getByText('Nenhuma exportação ainda.').waitFor();
    await page.getByLabel('Emitente').first().click();
    await page.getByRole('option', { name: /06\.?157\.?250|06157250|\(/ }).first().click();
    await page.getByRole('button', { name: 'Gerar exportação' }).click();
    const row = page.getByTestId('export-row').first();
    await row.getByText('Pronta').waitFor({ timeout: 60_000 });
    const link = row.getByRole('link', { name: 'Baixar ZIP' });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/v1\/exports\/exp_\w+\/download$/);
    await row.getByText(/Disponível até/).waitFor();
    // The browser's own request with the session cookie, as the link makes it.
    const zip = await page.request.get(`${w.origin}${href}`);
    expect(zip.status()).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'dash-export-'));
    writeFileSync(join(dir, 'x.zip'), await zip.body());
    const listing = execFileSync('unzip', ['-l', join(dir, 'x.zip')]).toString();
    expect(listing).toContain(`nfce/${accessKey}-nfeProc.xml`);
    expect(listing).toContain('manifest.csv');
  }, 120_000);

  it('is accessible and fits a phone', async () => {
    await checkScreen(w, 'exports', accountant, async (page) => {
      await page.goto(`${w.origin}/dashboard/exports`);
      await page.getByRole('heading', { name: 'Exportações', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Gerar exportação' }).waitFor();
    });
  }, 120_000);
});
