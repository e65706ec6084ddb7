// The documents area in a real Chromium against a gateway with its worker: an NFC-e issued from the
// "Nova NFC-e" form turns authorized on the open page, its DANFE shows inline, it is canceled (the
// reason's 15-character rule said first); a sandbox rejection is explained on the page; the search
// box finds a note by its customer and item words; a viewer sees no cancel and no new-note action;
// an NF-e offers the CC-e.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitSettled, readyIssuer, sale } from '../support/nfce-flow.js';
import { emitNfeSettled, invoice } from '../support/nfe-flow.js';
import { issueNfseSettled, nfseIssuer, serviceInvoice } from '../support/nfse-flow.js';
import { bearer, verifiedUser, type Tokens } from '../support/people.js';
import { joinTeam } from '../support/team.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';
import { REJECTION_HINTS_PT_BR } from '../../src/fiscal/cstat/rejection-hints-pt-br.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: documents', () => {
  let w: DashboardWorld;
  let owner: Tokens;
  let auth: { authorization: string };
  let issuerId: string;

  beforeAll(async () => {
    w = await startDashboard({ role: 'all' });
    owner = await verifiedUser(w.t.app);
    auth = bearer(owner);
    issuerId = await readyIssuer(w.t, auth);
  }, 120_000);
  afterAll(async () => w?.close());

  const api = async (url: string) => (await w.t.app.inject({ method: 'GET', url, headers: auth })).json();

  async function signedIn(tokens: Tokens, path: string): Promise<Page> {
    const page = await w.newPage();
    await useSession(page, w.origin, tokens);
    await page.goto(`${w.origin}/dashboard${path}`);
    return page;
  }

  /** Fills the form's single item and issues the sale; answers the new note's id (the page is on its detail). */
  async function issueFromForm(page: Page, item: { description: string; quantity: string; price: string }, extra: { consumer?: string; scenario?: string } = {}) {
    await page.getByRole('heading', { name: 'Nova NFC-e' }).waitFor();
    await page.getByLabel('Descrição').fill(item.description);
    await page.getByLabel('Quantidade').fill(item.quantity);
    await page.getByLabel('Preço unitário (R$)').fill(item.price);
    if (extra.consumer) {
      await page.getByLabel('Nome do consumidor (opcional)').fill(extra.consumer);
      await page.getByLabel('CPF do consumidor (opcional)').fill('529.982.247-25');
    }
    if (extra.scenario) await page.getByLabel('Cenário do sandbox').selectOption({ label: extra.scenario });
    await page.getByRole('button', { name: 'Emitir NFC-e' }).click();
    await page.waitForURL(/\/dashboard\/documents\/nfce\/nfce_/);
    return new URL(page.url()).pathname.split('/').at(-1)!;
  }

  const status = (page: Page, word: string) => page.getByTestId('note-status').filter({ hasText: word }).first().waitFor({ timeout: 20_000 });

  it('issues an NFC-e from the form, sees it authorized live, shows its DANFE inline and cancels it', async () => {
    await checkScreen(w, 'documents-new-nfce', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/documents/nfce/new`);
      await p.getByLabel('Descrição').waitFor();
    });
    const page = await signedIn(owner, '/documents/nfce/new');
    const id = await issueFromForm(page, { description: 'Bolo de fuba caseiro', quantity: '2', price: '12,50' }, { consumer: 'Maria Quitandeira' });
    // The page was opened while the note was processing; it turns authorized without a reload.
    await status(page, 'Autorizada');
    await page.getByText('Maria Quitandeira').waitFor();
    await page.getByText('R$ 25,00').first().waitFor();
    const key = (await api(`/v1/nfce/${id}`)).access_key as string;
    expect(await page.getByTestId('access-key').textContent()).toBe(key);
    await page.getByTestId('timeline').getByText('Autorizada').first().waitFor(); // the history's authorized event

    // The DANFE inline: a frame of the same-origin PDF route, which the browser's session opens.
    const frame = page.getByTestId('danfe-frame');
    const src = await frame.getAttribute('src');
    expect(src).toBe(`/v1/nfce/${id}/danfe.pdf`);
    const answer = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return { status: r.status, type: r.headers.get('content-type'), frameOptions: r.headers.get('x-frame-options'), head: new TextDecoder().decode((await r.arrayBuffer()).slice(0, 5)) };
    }, src!);
    expect(answer).toEqual({ status: 200, type: 'application/pdf', frameOptions: null, head: '%PDF-' });
    expect(await page.getByTestId('xml-link').getAttribute('href')).toBe(`/v1/nfce/${id}/xml`);

    // Cancel: a short reason is refused by the form (nothing sent), a valid one cancels.
    await page.getByRole('button', { name: 'Cancelar documento' }).click();
    await page.getByLabel('Motivo do cancelamento').fill('Desistiu');
    // Checked as it is typed, before any click; the click sends nothing.
    await page.getByText('O motivo precisa ter pelo menos 15 caracteres (tem 8).').waitFor();
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await page.getByText('O motivo precisa ter pelo menos 15 caracteres (tem 8).').waitFor();
    expect((await api(`/v1/nfce/${id}`)).status).toBe('authorized');
    await page.getByLabel('Motivo do cancelamento').fill('Cliente desistiu da compra no caixa');
    expect(await page.getByText('O motivo precisa ter pelo menos').count()).toBe(0);
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await status(page, 'Cancelada');
    await page.getByText('Cancelada: Cliente desistiu da compra no caixa').waitFor();
    const canceled = await api(`/v1/nfce/${id}`);
    expect(canceled.status).toBe('canceled');
    expect(canceled.cancellation.reason).toBe('Cliente desistiu da compra no caixa');
    await page.context().close();
  }, 90_000);

  it('issues a note with a sandbox rejection and shows the authority\'s code, message, field and hint', async () => {
    const page = await signedIn(owner, '/documents/nfce/new');
    const id = await issueFromForm(page, { description: 'Queijo minas', quantity: '1', price: '30' }, { scenario: 'Rejeição 778 (NCM inexistente)' });
    await status(page, 'Rejeitada');
    const rejection = page.getByTestId('rejection');
    await rejection.waitFor();
    const note = await api(`/v1/nfce/${id}`);
    expect(note.rejection.code).toBe('778');
    const text = (await rejection.textContent())!;
    // The hint in Portuguese (the dashboard asks pt-BR); the authority's own message as it wrote it.
    for (const part of [note.rejection.code, note.rejection.message, note.rejection.field, REJECTION_HINTS_PT_BR['778']!]) expect(text).toContain(part);
    await page.context().close();
    await checkScreen(w, 'documents-detail-rejected', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/documents/nfce/${id}`);
      await p.getByTestId('rejection').waitFor();
      await p.getByTestId('timeline').waitFor();
    });
  }, 60_000);

  it('lists the notes and finds one by its customer or item words', async () => {
    const { note } = await emitSettled(w.t, auth, sale(issuerId, {
      consumer: { name: 'Joaquina Prudente', cpf: '52998224725' },
      items: [{ description: 'Rapadura artesanal de buriti', quantity: 3, unit_price: 4.5, ncm: '17019900', cfop: '5102', unit: 'UN', cst_icms: '102' }],
      payment: { method: 'dinheiro', amount: 20 },
    }));
    expect(note.status).toBe('authorized');
    const page = await signedIn(owner, '/documents/nfce');
    const table = page.getByTestId('documents-table');
    await table.getByText('Joaquina Prudente').waitFor();
    // The status filter asks the API again: a rejected-only list has no authorized sale.
    await page.getByLabel('Situação').selectOption({ label: 'Rejeitada' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => table.getByText('Joaquina Prudente').count()).toBe(0);
    await page.getByRole('button', { name: 'Limpar' }).click();
    await table.getByText('Joaquina Prudente').waitFor();

    for (const words of ['rapadura buriti', 'joaquina']) {
      await page.getByLabel('Buscar documentos').fill(words);
      await page.getByRole('button', { name: 'Buscar', exact: true }).click();
      await page.getByTestId('search-results').locator(`a[href="/dashboard/documents/nfce/${note.id}"]`).waitFor();
    }
    await page.getByTestId('search-results').locator(`a[href="/dashboard/documents/nfce/${note.id}"]`).click();
    await page.getByTestId('access-key').filter({ hasText: note.access_key }).waitFor();
    await page.context().close();
    await checkScreen(w, 'documents-list', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/documents/nfce`);
      await p.getByTestId('documents-table').waitFor();
    });
  }, 60_000);

  it('shows a viewer no cancel and no "Nova NFC-e"', async () => {
    const { note } = await emitSettled(w.t, auth, sale(issuerId));
    expect(note.status).toBe('authorized');
    const viewer = await joinTeam(w.t.app, owner, 'viewer');
    const page = await signedIn(viewer, '/documents/nfce');
    await page.getByTestId('documents-table').waitFor();
    expect(await page.getByRole('link', { name: 'Nova NFC-e' }).count()).toBe(0);
    await page.goto(`${w.origin}/dashboard/documents/nfce/${note.id}`);
    await status(page, 'Autorizada');
    await page.getByTestId('danfe-frame').waitFor();
    expect(await page.getByRole('button', { name: 'Cancelar documento' }).count()).toBe(0);
    await page.goto(`${w.origin}/dashboard/documents/nfce/new`);
    await page.getByText('Seu papel não permite ver esta página.').first().waitFor();
    await page.context().close();
  }, 60_000);

  it('shows an NF-e with its CC-e action and registers a correction letter', async () => {
    const { note } = await emitNfeSettled(w.t, auth, invoice(issuerId));
    expect(note.status).toBe('authorized');
    const page = await signedIn(owner, `/documents/nfe/${note.id}`);
    await status(page, 'Autorizada');
    await page.getByText('Mercado Boa Compra Ltda').waitFor();
    expect(await page.getByTestId('danfe-frame').getAttribute('src')).toBe(`/v1/nfe/${note.id}/danfe.pdf`);
    await page.getByRole('button', { name: 'Enviar carta de correção' }).click();
    await page.getByLabel('Texto da correção').fill('Rua errada');
    await page.getByRole('button', { name: 'Enviar CC-e' }).click();
    await page.getByText('A correção precisa ter pelo menos 15 caracteres (tem 10).').waitFor();
    const correction = 'Endereco do destinatario: onde se le Rua A, 1, leia-se Rua A, 10';
    await page.getByLabel('Texto da correção').fill(correction);
    await page.getByRole('button', { name: 'Enviar CC-e' }).click();
    await page.getByText('Carta 1 · registrada').waitFor({ timeout: 20_000 });
    expect((await api(`/v1/nfe/${note.id}`)).correction.text).toContain('leia-se Rua A, 10');
    await page.context().close();
    await checkScreen(w, 'documents-detail-nfe', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/documents/nfe/${note.id}`);
      await p.getByText('Carta 1 · registrada').waitFor();
    });
  }, 60_000);

  it('shows an NF-e authorized in SVC-AN with the contingency\'s reason and time, in pt-BR', async () => {
    // The state answers this sale 108 (its outage, for this issuer): the gateway issues it again for SVC-AN (tpEmis 6).
    const { note } = await emitNfeSettled(w.t, auth, invoice(issuerId), { 'X-Sandbox-Scenario': 'outage:60' });
    w.t.simulator.endOutage();
    expect(note.status).toBe('authorized');
    expect(note.contingency).toMatchObject({ type: 'svc_an', reason: 'Autorizador da SEFAZ SP indisponivel; emissao em contingencia SVC-AN' });
    const page = await signedIn(owner, `/documents/nfe/${note.id}`);
    await status(page, 'Autorizada');
    const shown = await page.getByTestId('nfe-contingency').textContent();
    // dhCont shown in Brasília's time, day first (pt-BR).
    const d = new Date(note.contingency.entered_at);
    const day = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);
    expect(shown).toContain('Autorizada em contingência pela SVC-AN (Sefaz Virtual de Contingência); entrada em contingência em ');
    expect(shown).toContain(day);
    expect(shown).toContain('Motivo: Autorizador da SEFAZ SP indisponivel; emissao em contingencia SVC-AN');
    await page.context().close();
  }, 60_000);

  it('lists an NFS-e and shows its DPS, taker and DANFSe', async () => {
    const { note } = await issueNfseSettled(w.t, auth, serviceInvoice(await nfseIssuer(w.t, auth)));
    expect(note.status).toBe('authorized');
    const page = await signedIn(owner, '/documents/nfse');
    await page.getByRole('link', { name: 'NFS-e', exact: true }).and(page.locator('[aria-current="page"]')).waitFor();
    await page.getByTestId('documents-table').getByRole('row').filter({ hasText: 'Maria da Silva' }).getByRole('link').first().click();
    await page.waitForURL(`**/documents/nfse/${note.id}`);
    await status(page, 'Autorizada');
    await page.getByText(note.dps.id).waitFor();
    expect(await page.getByTestId('access-key').textContent()).toBe(note.access_key);
    expect(await page.getByTestId('danfe-frame').getAttribute('src')).toBe(`/v1/nfse/${note.id}/danfse.pdf`);
    await page.context().close();
  }, 60_000);

  it('pages through the list with its cursor, forward and back', async () => {
    // 21 more sales than a page holds (20): the authority's answers do not matter here.
    for (let i = 0; i < 21; i++) {
      const r = await w.t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId, { external_ref: `pagina-${i}` }) });
      expect(r.statusCode, r.body).toBe(202);
    }
    const page = await signedIn(owner, '/documents/nfce');
    const rows = page.getByTestId('documents-table').locator('tbody tr');
    await page.getByText('Página 1').waitFor();
    await expect.poll(() => rows.count()).toBe(20);
    // The number, not the whole row: a sale still processing may turn authorized between two looks.
    const firstNumber = () => rows.first().getByRole('link').textContent();
    const firstOfPage1 = await firstNumber();
    await page.getByRole('button', { name: 'Próxima' }).click();
    await page.getByText('Página 2').waitFor();
    await expect.poll(async () => (await firstNumber()) !== firstOfPage1).toBe(true);
    expect(await rows.count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Anterior' }).click();
    await page.getByText('Página 1').waitFor();
    await expect.poll(firstNumber).toBe(firstOfPage1);
    await page.context().close();
  }, 60_000);
});
