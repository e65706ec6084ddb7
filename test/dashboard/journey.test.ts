// The journey, one person's first hour in the dashboard, in a real Chromium against a real
// gateway (API + job worker + simulated SEFAZ): sign up, confirm the e-mail from the captured
// message, enable TOTP, register an issuer with the test certificate, issue an NFC-e and watch it
// authorize, open its DANFE, cancel it, issue one the sandbox rejects and read why, create an API
// key and a webhook and replay a delivery, invite a viewer who cannot cancel, and sign in again with
// a passkey through the CDP virtual authenticator. Each area's own file checks its screens in depth.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certFile } from '../issuers-harness.js';
import { freshBranchCnpj, sale, SP_ISSUER, TEST_CSC } from '../support/nfce-flow.js';
import { bearer, newEmail, PASSWORD, tokenFromMail, totpCode, verifiedUser } from '../support/people.js';
import { HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: the first hour of a new account', () => {
  let w: DashboardWorld;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    w = await startDashboard({ role: 'all' }); // with the job worker: notes authorize, webhooks go out
    receiver = await startWebhookReceiver();
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await w?.close();
  });

  const go = (page: Page, path: string) => page.goto(`${w.origin}/dashboard${path}`);
  const cookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === '__Host-session')!.value;
  const noteStatus = (page: Page, word: string) => page.getByTestId('note-status').filter({ hasText: word }).first().waitFor({ timeout: 30_000 });

  async function issueFromForm(page: Page, description: string, scenario?: string): Promise<string> {
    await go(page, '/documents/nfce/new');
    await page.getByRole('heading', { name: 'Nova NFC-e' }).waitFor();
    await page.getByLabel('Descrição').fill(description);
    await page.getByLabel('Quantidade').fill('2');
    await page.getByLabel('Preço unitário (R$)').fill('7,50');
    if (scenario) await page.getByLabel('Cenário do sandbox').selectOption({ label: scenario });
    await page.getByRole('button', { name: 'Emitir NFC-e' }).click();
    await page.waitForURL(/\/dashboard\/documents\/nfce\/nfce_/);
    return new URL(page.url()).pathname.split('/').at(-1)!;
  }

  it('walks from sign-up to a passkey sign-in', async () => {
    const page = await w.newPage();
    page.setDefaultTimeout(45_000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    // 1. Sign up and confirm the e-mail through the link the gateway mailed (captured in the sandbox).
    const email = newEmail('journey');
    await go(page, '/');
    await page.getByRole('link', { name: 'Criar conta' }).click();
    await page.getByLabel('Seu nome').fill('Ana Souza');
    await page.getByLabel('Nome da empresa').fill('Padaria Jornada');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await page.getByTestId('sandbox-verification').getByText(email).waitFor(); // no SMTP: no e-mail leaves
    const mail = await w.t.app.inject({ method: 'GET', url: '/v1/sandbox/mail', headers: bearer(await cookie(page)) });
    const link = (mail.json().data as { subject: string; text: string }[]).find((m) => /Confirm/.test(m.subject))!.text.match(/https?:\/\/\S+verify-email\?token=\S+/)![0];
    await page.goto(link);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByTestId('whoami').getByText(email).waitFor();
    const owner = await cookie(page);

    // 2. TOTP from the security screen, with the code of the secret it shows.
    await go(page, '/security');
    await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Código de 6 dígitos').fill(totpCode(secret, Date.now()));
    await page.getByRole('button', { name: 'Confirmar e ativar' }).click();
    await page.getByTestId('recovery-codes').getByRole('listitem').first().waitFor();
    await page.getByRole('button', { name: 'Guardei os códigos' }).click();
    await page.getByText('A verificação em duas etapas está ativa.').waitFor();

    // 3. An issuer with the test certificate and the CSC.
    await go(page, '/issuers/new');
    const cnpj = freshBranchCnpj();
    await page.getByLabel('CNPJ').fill(cnpj);
    await page.getByLabel('Inscrição estadual').fill(SP_ISSUER.ie);
    await page.getByLabel('Razão social').fill('Padaria Jornada Ltda');
    await page.getByLabel('Nome fantasia').fill('Padaria Jornada');
    await page.getByLabel('UF').selectOption('SP');
    await page.getByLabel('Logradouro').fill('Rua Augusta');
    await page.getByRole('textbox', { name: 'Número', exact: true }).fill('200');
    await page.getByLabel('Bairro').fill('Consolação');
    await page.getByRole('combobox', { name: 'Município' }).fill('Sao Pau');
    await page.getByRole('option', { name: 'São Paulo', exact: true }).click();
    await page.getByLabel('CEP').fill('01305-000');
    await page.getByRole('button', { name: 'Cadastrar emitente' }).click();
    await page.getByRole('heading', { name: 'Padaria Jornada', exact: true }).waitFor();
    const issuerId = page.url().split('/').at(-1)!;
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

    // 4. An NFC-e from the form: authorized while the page is open, its DANFE inline, then canceled.
    const first = await issueFromForm(page, 'Pão de queijo');
    await noteStatus(page, 'Autorizada');
    const src = await page.getByTestId('danfe-frame').getAttribute('src');
    expect(src).toBe(`/v1/nfce/${first}/danfe.pdf`);
    const pdf = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return { status: r.status, type: r.headers.get('content-type'), head: new TextDecoder().decode((await r.arrayBuffer()).slice(0, 5)) };
    }, src!);
    expect(pdf).toEqual({ status: 200, type: 'application/pdf', head: '%PDF-' });
    await page.getByRole('button', { name: 'Cancelar documento' }).click();
    await page.getByLabel('Motivo do cancelamento').fill('Cliente desistiu da compra');
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await noteStatus(page, 'Cancelada');

    // 5. A sale the sandbox rejects on purpose: the authority's code and our explanation on the page, in the Portuguese the API answers the dashboard.
    const rejected = await issueFromForm(page, 'Queijo minas', 'Rejeição 778 (NCM inexistente)');
    await noteStatus(page, 'Rejeitada');
    const why = (await w.t.app.inject({ method: 'GET', url: `/v1/nfce/${rejected}`, headers: { ...bearer(owner), 'accept-language': 'pt-BR' } })).json().rejection;
    const shown = (await page.getByTestId('rejection').textContent())!;
    for (const part of [why.code, why.message, why.field, why.hint]) expect(shown).toContain(part);

    // 6. An API key (shown once) that then issues a sale on its own; a webhook endpoint, a test event, a replay.
    await go(page, '/developers/api-keys');
    await page.getByRole('button', { name: 'Nova chave de API' }).click();
    await page.getByLabel('Nome da aplicação').fill('PDV do caixa 1');
    await page.getByRole('checkbox', { name: 'nfce:write', exact: true }).check();
    await page.getByRole('button', { name: 'Criar chave' }).click();
    const key = (await page.getByTestId('secret-once').textContent())!.trim();
    await page.getByRole('button', { name: 'Já copiei, fechar' }).click();
    const second = await w.t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...bearer(key), prefer: 'wait=10' }, payload: sale(issuerId) });
    expect(second.statusCode, second.body).toBeLessThan(300);
    const secondId = second.json().id as string;

    await go(page, '/developers/webhooks');
    await page.getByRole('button', { name: 'Novo endpoint' }).click();
    await page.getByLabel('URL do endpoint').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'webhook.test', exact: true }).check();
    await page.getByRole('button', { name: 'Criar endpoint' }).click();
    await page.getByRole('button', { name: 'Já copiei, fechar' }).click();
    await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await receiver.waitFor(1, (r) => r.body.includes('"webhook.test"'));
    const delivery = page.getByTestId('deliveries').getByRole('row', { name: /webhook\.test/ });
    await expect.poll(() => delivery.getByTestId('delivery-attempts').textContent(), { timeout: 20_000 }).toBe('1');
    await delivery.getByRole('button', { name: 'Reenviar webhook.test' }).click();
    await receiver.waitFor(2, (r) => r.body.includes('"webhook.test"'));
    await expect.poll(() => delivery.getByTestId('delivery-attempts').textContent(), { timeout: 20_000 }).toBe('2');

    // 7. A viewer, invited from the team screen, sees the authorized sale and cannot cancel it.
    await go(page, '/team');
    const viewerEmail = newEmail('viewer');
    await page.getByLabel('E-mail').fill(viewerEmail);
    await page.getByRole('button', { name: 'Convidar' }).click();
    await page.getByText(`Convite enviado para ${viewerEmail}.`).waitFor();
    const viewer = await verifiedUser(w.t.app, viewerEmail);
    const token = await tokenFromMail(w.t.app, viewer.session_token, /^Convite/, 'inv');
    const viewerPage = await w.newPage();
    viewerPage.setDefaultTimeout(45_000);
    await useSession(viewerPage, w.origin, viewer);
    await go(viewerPage, `/accept-invite?token=${token}`);
    await viewerPage.getByRole('button', { name: 'Aceitar convite' }).click();
    await viewerPage.getByTestId('whoami').getByText('Leitor').waitFor();
    await go(viewerPage, `/documents/nfce/${secondId}`);
    await noteStatus(viewerPage, 'Autorizada');
    await viewerPage.getByTestId('danfe-frame').waitFor();
    expect(await viewerPage.getByRole('button', { name: 'Cancelar documento' }).count()).toBe(0);
    await go(page, `/documents/nfce/${secondId}`);
    await page.getByRole('button', { name: 'Cancelar documento' }).waitFor(); // the owner can

    // 8. A passkey registered from the security screen, then a sign-in with it alone.
    await go(page, '/security');
    await page.getByLabel('Nome da chave').fill('Notebook da loja');
    await page.getByRole('button', { name: 'Registrar chave de acesso' }).click();
    await page.getByText('Chave "Notebook da loja" registrada.').waitFor();
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await page.getByRole('button', { name: 'Entrar com chave de acesso (passkey)' }).click();
    await page.getByTestId('whoami').getByText(email).waitFor();
    const me = await w.t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: bearer(await cookie(page)) });
    expect(me.json()).toMatchObject({ user: { email, totp_enabled: true, passkeys: 1 }, role: 'owner', session: { methods: ['passkey'] } });
  }, 240_000);
});
