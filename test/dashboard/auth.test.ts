// The dashboard's signed-out pages in a real Chromium: sign up, confirm the e-mail from the link
// the gateway mailed, sign out, sign in again (password, then TOTP), each page accessible.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, newEmail, PASSWORD, totpCode } from '../support/people.js';
import { expectAccessible, HAVE_CHROMIUM, PHONE, screenshot, startDashboard, type DashboardWorld } from '../support/dashboard.js';

if (!HAVE_CHROMIUM) console.warn('dashboard tests: skipped, /usr/bin/chromium is absent (apt-get install chromium; .ci/run installs it)');

describe.skipIf(!HAVE_CHROMIUM)('dashboard: signing up and in', () => {
  let w: DashboardWorld;
  beforeAll(async () => {
    w = await startDashboard();
  }, 120_000);
  afterAll(async () => w?.close());

  it('signs up, confirms the e-mail through the mailed link, signs out and in again with a TOTP code', async () => {
    const page = await w.newPage();
    const email = newEmail('dash');
    await page.goto(`${w.origin}/dashboard/`);
    // Signed out: the app sends to the sign-in page.
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await expectAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in');
    await page.getByRole('link', { name: 'Criar conta' }).click();
    await page.getByLabel('Seu nome').fill('Ana Souza');
    await page.getByLabel('Nome da empresa').fill('Padaria Ana');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha').fill(PASSWORD);
    await expectAccessible(page, 'sign-up');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await page.getByTestId('sandbox-verification').getByText(email).waitFor(); // no SMTP: no e-mail leaves

    // The captured e-mail's link is a dashboard page (DASHBOARD_URL defaults to PUBLIC_BASE_URL/dashboard).
    const session = (await page.context().cookies()).find((c) => c.name === '__Host-session')!.value;
    const mail = await w.t.app.inject({ method: 'GET', url: '/v1/sandbox/mail', headers: bearer(session) });
    const link = (mail.json().data as { subject: string; text: string }[]).find((m) => /Confirm/.test(m.subject))!.text.match(/https?:\/\/\S+verify-email\?token=\S+/)![0];
    expect(link.startsWith(`${w.origin}/dashboard/verify-email?token=evf_`)).toBe(true);
    await page.goto(link);
    await page.getByText('E-mail confirmado. Tudo pronto.').waitFor();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByTestId('whoami').getByText(email).waitFor();

    // TOTP through the API (the security screen has its own test), then a sign-in with it.
    const setup = await w.t.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: { ...bearer(session), origin: w.origin } });
    const secret = setup.json().secret as string;
    const enabled = await w.t.app.inject({ method: 'POST', url: '/v1/auth/2fa/verify', headers: bearer(session), payload: { code: totpCode(secret, Date.now()) } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await page.getByLabel('Código de 6 dígitos do aplicativo autenticador').fill(totpCode(secret, Date.now() + 30_000));
    await expectAccessible(page, 'second factor');
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.getByTestId('whoami').getByText(email).waitFor();
  });

  it('shows the gateway\'s own message for a wrong password, on a phone too', async () => {
    const page = await w.newPage(PHONE);
    await page.goto(`${w.origin}/dashboard/sign-in`);
    await page.getByLabel('E-mail').fill(newEmail('nobody'));
    await page.getByLabel('Senha').fill('wrong password here');
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    const alert = page.getByTestId('api-error');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/E-mail ou senha incorretos/); // the gateway's sentence, asked in pt-BR
    await expectAccessible(page, 'sign-in error');
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'sign-in-error');
  });
});
