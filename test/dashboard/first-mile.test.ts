// The first mile: a new shop owner in the sandbox (no SMTP, so no e-mail leaves) signs
// up in the dashboard, confirms the address with the link the page shows (or from their own captured
// mail, reachable before confirming), lands on the dashboard and issues a first NFC-e that the sandbox
// authority authorizes, opens its DANFE and cancels it. Only the browser: no API call, no cookie read by the test. Desktop and a
// 390-pixel phone. And (item 3) a session past its own rate limit reads a Portuguese message with the
// wait, never a spinner.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certFile } from '../issuers-harness.js';
import { freshBranchCnpj, SP_ISSUER, TEST_CSC } from '../support/nfce-flow.js';
import { bearer, newEmail, PASSWORD, verifiedUser } from '../support/people.js';
import { DESKTOP, expectAccessible, HAVE_CHROMIUM, PHONE, screenshot, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: the first mile of a new shop owner in the sandbox', () => {
  let w: DashboardWorld;
  beforeAll(async () => {
    w = await startDashboard({ role: 'all' }); // with the job worker: the note gets authorized
  }, 300_000); // the machine may be busy: a start takes seconds alone, minutes beside other runs
  afterAll(async () => w?.close());

  const go = (page: Page, path: string) => page.goto(`${w.origin}/dashboard${path}`);
  async function checkLayout(page: Page, screen: string) {
    await expectAccessible(page, `${screen} at ${page.viewportSize()!.width}px`);
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow, `${screen} scrolls sideways`).toBeLessThanOrEqual(0);
    await screenshot(page, screen);
  }

  async function signUp(page: Page, email: string, shop: string) {
    await go(page, '/');
    await page.getByRole('link', { name: 'Criar conta' }).click();
    await page.getByLabel('Seu nome').fill('Ana Souza');
    await page.getByLabel('Nome da empresa').fill(shop);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Criar conta' }).click();
  }

  it.each([['desktop', DESKTOP], ['phone', PHONE]] as const)('signs up, confirms from the page, and issues an authorized NFC-e (%s)', async (_name, viewport) => {
    const page = await w.newPage(viewport);
    page.setDefaultTimeout(45_000);
    const email = newEmail('first-mile');
    await signUp(page, email, 'Padaria Primeira');

    // The page says no e-mail leaves this sandbox, and offers the link; the own captured mail holds it too.
    const shown = page.getByTestId('sandbox-verification');
    await shown.getByText(email).waitFor();
    await page.getByTestId('own-mail').getByRole('link', { name: 'Abrir o link de confirmação deste e-mail' }).waitFor();
    await checkLayout(page, 'verify-email-sandbox');
    await shown.getByRole('button', { name: 'Confirmar meu e-mail agora' }).click();
    await page.getByText('E-mail confirmado. Tudo pronto.').waitFor();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByRole('heading', { name: 'Visão geral' }).waitFor();
    if (viewport === DESKTOP) await page.getByTestId('whoami').getByText(email).waitFor();

    // An issuer with the test certificate and the CSC, from the forms.
    await go(page, '/issuers/new');
    await page.getByLabel('CNPJ').fill(freshBranchCnpj());
    await page.getByLabel('Inscrição estadual').fill(SP_ISSUER.ie);
    await page.getByLabel('Razão social').fill('Padaria Primeira Ltda');
    await page.getByLabel('Nome fantasia').fill('Padaria Primeira');
    await page.getByLabel('UF').selectOption('SP');
    await page.getByLabel('Logradouro').fill('Rua Augusta');
    await page.getByRole('textbox', { name: 'Número', exact: true }).fill('200');
    await page.getByLabel('Bairro').fill('Consolação');
    await page.getByRole('combobox', { name: 'Município' }).fill('Sao Pau');
    await page.getByRole('option', { name: 'São Paulo', exact: true }).click();
    await page.getByLabel('CEP').fill('01305-000');
    await page.getByRole('button', { name: 'Cadastrar emitente' }).click();
    await page.getByRole('heading', { name: 'Padaria Primeira', exact: true }).waitFor();
    await page.getByLabel('Arquivo do certificado (.pfx ou .p12)').setInputFiles({
      name: 'empresa.pfx', mimeType: 'application/x-pkcs12', buffer: certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx'),
    });
    await page.getByLabel('Senha do certificado').fill('minhasenha');
    await page.getByRole('button', { name: 'Enviar certificado' }).click();
    await page.getByRole('status').filter({ hasText: 'Certificado recebido.' }).waitFor();
    await page.getByLabel('ID do CSC').fill(TEST_CSC.id_csc);
    await page.getByLabel('Código CSC').fill(TEST_CSC.csc);
    await page.getByRole('button', { name: 'Salvar CSC' }).click();
    await page.getByText('Pronto para emitir').waitFor();

    // The first NFC-e, authorized by the sandbox authority while the page is open.
    await go(page, '/documents/nfce/new');
    await page.getByRole('heading', { name: 'Nova NFC-e' }).waitFor();
    await page.getByLabel('Descrição').fill('Pão de queijo');
    await page.getByLabel('Quantidade').fill('2');
    await page.getByLabel('Preço unitário (R$)').fill('7,50');
    await page.getByRole('button', { name: 'Emitir NFC-e' }).click();
    await page.waitForURL(/\/dashboard\/documents\/nfce\/nfce_/);
    await page.getByTestId('note-status').filter({ hasText: 'Autorizada' }).first().waitFor({ timeout: 60_000 });
    // The timeline's lines the gateway writes itself, in Portuguese too.
    await page.getByTestId('timeline').getByText(/^enviada à SEFAZ \(tentativa \d+\)$/).waitFor();
    await checkLayout(page, 'first-nfce-authorized');

    // Its DANFE, inline from the gateway's PDF route with the page's own session.
    const src = await page.getByTestId('danfe-frame').getAttribute('src');
    expect(src).toMatch(/^\/v1\/nfce\/nfce_[^/]+\/danfe\.pdf$/);
    const pdf = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return { status: r.status, type: r.headers.get('content-type'), head: new TextDecoder().decode((await r.arrayBuffer()).slice(0, 5)) };
    }, src!);
    expect(pdf).toEqual({ status: 200, type: 'application/pdf', head: '%PDF-' });

    // And its cancellation, as the owner would do it after a customer gives up.
    await page.getByRole('button', { name: 'Cancelar documento' }).click();
    await page.getByLabel('Motivo do cancelamento').fill('Cliente desistiu da compra no caixa');
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await page.getByTestId('note-status').filter({ hasText: 'Cancelada' }).first().waitFor({ timeout: 60_000 });
    await page.getByText('Cancelada: Cliente desistiu da compra no caixa').waitFor();
    await checkLayout(page, 'first-nfce-canceled');
  }, 300_000);

  it('after a reload the link is still reachable: the own captured mail, before confirming', async () => {
    const page = await w.newPage(PHONE);
    page.setDefaultTimeout(45_000);
    const email = newEmail('reload');
    await signUp(page, email, 'Padaria Recarga');
    await page.getByTestId('sandbox-verification').waitFor();
    await page.reload(); // the answer's link was in the page's memory only
    const link = page.getByTestId('own-mail').getByRole('link', { name: 'Abrir o link de confirmação deste e-mail' });
    await link.click();
    await page.getByText('E-mail confirmado. Tudo pronto.').waitFor();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByRole('heading', { name: 'Visão geral' }).waitFor();
  }, 120_000);

  it('a session past its rate limit reads how long to wait, in Portuguese, and no spinner', async () => {
    const owner = await verifiedUser(w.t.app);
    // The session's own budget (SESSION_RATE_LIMIT_PER_MINUTE, 300) spent by API calls with its token.
    for (let i = 0; i < 400; i++) {
      if ((await w.t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: bearer(owner) })).statusCode === 429) break;
    }
    // One context, a fresh load at each width (as checkScreen does).
    const page = await w.newPage(DESKTOP);
    await useSession(page, w.origin, owner);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await go(page, '/');
      await page.getByRole('alert').getByText(/^Muitas requisições em pouco tempo\. Tente de novo em \d+ segundos?\.$/).waitFor({ timeout: 20_000 });
      expect(await page.locator('[aria-busy="true"]').count()).toBe(0);
      await checkLayout(page, 'rate-limited');
    }
    await page.context().close();
  }, 180_000);
});
