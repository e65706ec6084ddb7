// The developers area in a real Chromium: an API key created in the dashboard works against the
// API, its secret is shown once and never again, rotation and revocation take effect; a webhook
// endpoint to a local receiver gets a test event and a replay, both seen in the delivery log; the
// sandbox page; a viewer never reaches the area.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMembership } from '../../src/platform/people/storage/membership-repository.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';
import { bearer, PASSWORD, verifiedUser, type Tokens } from '../support/people.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// Each test drives several pages and checks each screen at two widths: more than the 30 s default.
describe.skipIf(!HAVE_CHROMIUM)('dashboard: developers (API keys, webhooks, sandbox)', { timeout: 90_000 }, () => {
  let w: DashboardWorld;
  let receiver: WebhookReceiver;
  let owner: Tokens & { email: string };
  beforeAll(async () => {
    // With the job worker: webhook deliveries (test events, replays) are sent by it.
    w = await startDashboard({ role: 'all' });
    receiver = await startWebhookReceiver();
    owner = await verifiedUser(w.t.app);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await w?.close();
  });

  const api = (method: 'GET' | 'POST', url: string, token: string) => w.t.app.inject({ method, url, headers: bearer(token) });

  async function open(path: string, session: Tokens = owner): Promise<Page> {
    const page = await w.newPage();
    await useSession(page, w.origin, session);
    await page.goto(`${w.origin}/dashboard${path}`);
    return page;
  }

  /** The secret of the once-only dialog, which the member then closes. */
  async function takeSecret(page: Page): Promise<string> {
    const secret = (await page.getByTestId('secret-once').textContent())!.trim();
    await page.getByText('este segredo não será mostrado de novo').waitFor();
    await page.getByRole('button', { name: 'Já copiei, fechar' }).click();
    await page.getByTestId('secret-once').waitFor({ state: 'detached' });
    return secret;
  }

  it('creates an API key shown once that works against the API; rotation keeps the old one for the grace period; revocation ends both', async () => {
    const page = await open('/developers');
    // The area opens on its first section.
    await page.getByRole('heading', { name: 'Desenvolvedores' }).waitFor();
    await page.waitForURL(/\/dashboard\/developers\/api-keys$/);
    await page.getByRole('button', { name: 'Nova chave de API' }).click();
    await page.getByLabel('Nome da aplicação').fill('PDV loja centro');
    await page.getByRole('checkbox', { name: 'issuers:read', exact: true }).check();
    await page.getByRole('checkbox', { name: 'nfce:write', exact: true }).check();
    // Signed in 11 minutes ago: a new key needs a fresh proof (step-up), then the same request goes through once.
    await w.t.db.query("UPDATE sessions SET authenticated_at = authenticated_at - interval '11 minutes' WHERE id = $1", [owner.session.id]);
    await page.getByRole('button', { name: 'Criar chave' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirme que é você' });
    await stepUp.getByLabel('Senha').fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirmar' }).click();
    const key = await takeSecret(page);
    expect(key.length).toBeGreaterThan(20);

    // The key authenticates, with the scopes chosen and no more.
    expect((await api('GET', '/v1/issuers', key)).statusCode).toBe(200);
    expect((await api('GET', '/v1/webhooks', key)).statusCode).toBe(403);
    const listed = (await api('GET', '/v1/applications', owner.session_token)).json().data as { name: string; key_prefix: string; scopes: string[] }[];
    expect(listed).toEqual([expect.objectContaining({ name: 'PDV loja centro', scopes: ['issuers:read', 'nfce:write'] })]);
    expect(key.startsWith(listed[0]!.key_prefix)).toBe(true);

    // Only the prefix stays on the page, before and after a reload.
    const row = page.getByRole('row', { name: /PDV loja centro/ });
    await row.getByText(`${listed[0]!.key_prefix}…`).waitFor();
    expect(await page.content()).not.toContain(key);
    await page.reload();
    await page.getByRole('row', { name: /PDV loja centro/ }).waitFor();
    expect(await page.content()).not.toContain(key);

    // Rotation: a new key, shown once; the old one still works until previous_key_expires_at.
    await page.getByRole('button', { name: 'Girar a chave PDV loja centro' }).click();
    await page.getByRole('button', { name: 'Gerar nova chave' }).click();
    await page.getByText('A chave anterior continua funcionando até').waitFor();
    const rotated = await takeSecret(page);
    expect(rotated).not.toBe(key);
    expect((await api('GET', '/v1/issuers', rotated)).statusCode).toBe(200);
    expect((await api('GET', '/v1/issuers', key)).statusCode).toBe(200);
    await page.getByText(/anterior vale até/).waitFor();
    expect(await page.content()).not.toContain(rotated);

    await checkScreen(w, 'developers-api-keys', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/developers/api-keys`);
      await p.getByRole('row', { name: /PDV loja centro/ }).getByText(/anterior vale até/).waitFor();
    });

    // Revocation, confirmed: both keys answer 401 at once.
    await page.getByRole('button', { name: 'Revogar a chave PDV loja centro' }).click();
    await page.getByText('param de funcionar imediatamente').waitFor();
    await page.getByRole('button', { name: 'Revogar chave' }).click();
    await page.getByText('Chave revogada.').waitFor();
    await page.getByText('Nenhuma chave de API ainda.').waitFor();
    expect((await api('GET', '/v1/issuers', rotated)).statusCode).toBe(401);
    expect((await api('GET', '/v1/issuers', key)).statusCode).toBe(401);
    await page.context().close();
  });

  it('creates a webhook endpoint, sends a test event and replays it: the delivery log shows both attempts', async () => {
    const page = await open('/developers/webhooks');
    await page.getByRole('button', { name: 'Novo endpoint' }).click();
    // A private address is refused by the gateway, and the dialog says why in the gateway's words.
    await page.getByLabel('URL do endpoint').fill('http://10.0.0.5/hook');
    await page.getByRole('checkbox', { name: 'webhook.test', exact: true }).check();
    await page.getByRole('button', { name: 'Criar endpoint' }).click();
    await page.getByRole('dialog').getByTestId('api-error').getByText('url', { exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'webhook.test', exact: true }).uncheck();
    await page.getByLabel('URL do endpoint').fill(receiver.url);
    await page.getByLabel('Descrição').fill('Retaguarda do PDV');
    await page.getByRole('checkbox', { name: 'webhook.test', exact: true }).check();
    await page.getByRole('checkbox', { name: 'nfce.authorized', exact: true }).check();
    await page.getByRole('button', { name: 'Criar endpoint' }).click();
    const secret = await takeSecret(page);
    expect(secret).toMatch(/^whsec_/);
    // Closing the secret opens the endpoint's page.
    await page.getByRole('heading', { name: `Endpoint de webhook: ${receiver.url}` }).waitFor();
    const hooks = (await api('GET', '/v1/webhooks', owner.session_token)).json().data as { id: string; url: string; description: string; event_types: string[] }[];
    expect(hooks).toEqual([expect.objectContaining({ url: receiver.url, description: 'Retaguarda do PDV', event_types: ['nfce.authorized', 'webhook.test'] })]);
    expect(page.url()).toBe(`${w.origin}/dashboard/developers/webhooks/${hooks[0]!.id}`);
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await page.getByText('Evento de teste enfileirado').waitFor();
    await receiver.waitFor(1, (r) => r.body.includes('"webhook.test"'));
    const log = page.getByTestId('deliveries');
    const delivery = log.getByRole('row', { name: /webhook\.test/ });
    await delivery.getByText('Entregue').waitFor();
    expect(await delivery.getByTestId('delivery-attempts').textContent()).toBe('1');

    await delivery.getByRole('button', { name: 'Reenviar webhook.test' }).click();
    await receiver.waitFor(2, (r) => r.body.includes('"webhook.test"'));
    await expect.poll(() => delivery.getByTestId('delivery-attempts').textContent(), { timeout: 20_000 }).toBe('2');
    await delivery.getByText('Entregue').waitFor();
    // The attempts, each with its origin and the receiver's answer.
    const attempts = page.getByRole('table', { name: 'Tentativas de webhook.test' });
    await attempts.waitFor();
    await attempts.getByRole('row', { name: /Teste.*200/ }).waitFor();
    await attempts.getByRole('row', { name: /Reenvio.*200/ }).waitFor();
    const held = (await api('GET', `/v1/webhooks/${hooks[0]!.id}/deliveries`, owner.session_token)).json().data as { attempts: { trigger: string; status_code: number }[] }[];
    expect(held).toHaveLength(1);
    expect(held[0]!.attempts.map((a) => [a.trigger, a.status_code])).toEqual([['test', 200], ['replay', 200]]);

    // Edit (PATCH): description and the switch; the API holds the change.
    await page.getByRole('button', { name: 'Editar endpoint' }).click();
    await page.getByLabel('Descrição').fill('Retaguarda do PDV (loja 2)');
    await page.getByRole('switch', { name: 'Ativo' }).uncheck();
    await page.getByRole('button', { name: 'Salvar alterações' }).click();
    await page.getByText('Alterações salvas.').waitFor();
    await page.getByText('Desativado').waitFor();
    const changed = (await api('GET', `/v1/webhooks/${hooks[0]!.id}`, owner.session_token)).json();
    expect(changed).toMatchObject({ description: 'Retaguarda do PDV (loja 2)', enabled: false });
    await page.context().close();

    await checkScreen(w, 'developers-webhooks', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/developers/webhooks`);
      await p.getByRole('link', { name: receiver.url }).waitFor();
    });
    await checkScreen(w, 'developers-webhook-detail', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/developers/webhooks/${hooks[0]!.id}`);
      await p.getByTestId('deliveries').getByText('Entregue').waitFor();
      await p.getByRole('button', { name: 'Tentativas de webhook.test' }).click();
      await p.getByRole('table', { name: 'Tentativas de webhook.test' }).waitFor();
    });

    // Deleting, confirmed, leads back to the list; the API no longer knows the endpoint.
    const detail = await open(`/developers/webhooks/${hooks[0]!.id}`);
    await detail.getByRole('button', { name: 'Excluir endpoint' }).click();
    await detail.getByRole('dialog').getByRole('button', { name: 'Excluir endpoint' }).click();
    await detail.getByText('Nenhum endpoint ainda.').waitFor();
    expect((await api('GET', `/v1/webhooks/${hooks[0]!.id}`, owner.session_token)).statusCode).toBe(404);
    await detail.context().close();
  });

  it('shows the sandbox scenarios and the captured e-mails', async () => {
    await checkScreen(w, 'developers-sandbox', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/developers/sandbox`);
      await p.getByRole('heading', { name: 'Cenários de falha' }).waitFor();
      await p.getByRole('cell', { name: 'reject:<cStat>' }).waitFor();
      // The verification e-mail of the sign-up, captured, readable in place.
      const mail = p.getByRole('table', { name: 'E-mails capturados' });
      await mail.getByRole('button', { name: /Confirm/ }).click();
      await mail.getByText(/verify-email\?token=evf_/).waitFor();
    });
  });

  it('a viewer sees no developers menu, and the address shows the forbidden message', async () => {
    const viewer = await verifiedUser(w.t.app);
    await insertMembership(w.t.db, { accountId: owner.session.account_id, userId: viewer.session.user_id, role: 'viewer', at: new Date() });
    const switched = await w.t.app.inject({ method: 'POST', url: '/v1/auth/switch-account', headers: bearer(viewer), payload: { account_id: owner.session.account_id } });
    expect(switched.statusCode, switched.body).toBe(200);
    const asViewer = switched.json() as Tokens;
    expect((await api('GET', '/v1/applications', asViewer.session_token)).statusCode).toBe(403);
    const page = await open('/', asViewer);
    await page.getByTestId('whoami').getByText('Leitor').waitFor();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('link', { name: 'Emitentes' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Desenvolvedores' }).count()).toBe(0);
    for (const path of ['/developers/api-keys', '/developers/webhooks']) {
      await page.goto(`${w.origin}/dashboard${path}`);
      await page.getByRole('heading', { name: 'Seu papel não permite ver esta página.' }).waitFor();
      expect(await page.getByRole('button', { name: 'Nova chave de API' }).count()).toBe(0);
    }
    await page.context().close();
  });
});
