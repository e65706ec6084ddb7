// The security screen in a real Chromium: TOTP enabled from the screen (the code computed from the
// secret it shows) with the recovery codes shown once; a passkey registered through a CDP virtual
// authenticator, then a sign-in with that passkey alone from the sign-in page; sessions listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bearer, totpCode, verifiedUser } from '../support/people.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: security (TOTP, passkeys, sessions)', () => {
  let w: DashboardWorld;
  beforeAll(async () => {
    w = await startDashboard();
  }, 120_000);
  afterAll(async () => w?.close());

  const openSecurity = async (page: Page) => {
    await page.goto(`${w.origin}/dashboard/security`);
    await page.getByRole('heading', { name: 'Sessões ativas' }).waitFor();
    await page.getByTestId('session-row').first().waitFor();
  };

  it('enables TOTP showing the recovery codes once, registers a passkey and signs in with it', async () => {
    const user = await verifiedUser(w.t.app);
    const page = await w.newPage();
    await useSession(page, w.origin, user);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await openSecurity(page);

    await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click();
    await page.getByRole('img', { name: 'QR code para o aplicativo autenticador' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Código de 6 dígitos').fill(totpCode(secret, Date.now()));
    await page.getByRole('button', { name: 'Confirmar e ativar' }).click();
    const codes = page.getByTestId('recovery-codes').getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    const me = await w.t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: bearer(user) });
    expect(me.json().user.totp_enabled).toBe(true);
    await page.getByRole('button', { name: 'Guardei os códigos' }).click();
    await page.getByText('A verificação em duas etapas está ativa.').waitFor();
    // Once: after a reload the screen has no codes to show, only the way to turn TOTP off.
    await openSecurity(page);
    await page.getByRole('button', { name: 'Desativar verificação em duas etapas' }).waitFor();
    expect(await page.getByTestId('recovery-codes').count()).toBe(0);

    await page.getByLabel('Nome da chave').fill('Notebook');
    await page.getByRole('button', { name: 'Registrar chave de acesso' }).click();
    await page.getByText('Chave "Notebook" registrada.').waitFor();
    await page.getByTestId('passkey-row').getByText('Notebook').waitFor();

    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await page.getByRole('button', { name: 'Entrar com chave de acesso (passkey)' }).click();
    await page.getByTestId('whoami').getByText(user.email).waitFor();
    await openSecurity(page);
    await page.getByTestId('session-row').getByText('passkey').first().waitFor();
  }, 90_000);

  it('the security screen is accessible at desktop and phone widths', async () => {
    const user = await verifiedUser(w.t.app);
    await checkScreen(w, 'security', user, openSecurity);
  }, 90_000);
});
