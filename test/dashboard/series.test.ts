// The issuer's numbering panel lets an owner continue a series
// where another system stopped (the next number) and retire it, through PATCH
// /v1/issuers/{id}/series/{model}/{series}, in Portuguese, with the numbers skipped and the date to
// void them by. The gateway's rules (docs/guides/api.md, series) decide; the page shows their answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyIssuer } from '../support/nfce-flow.js';
import { bearer, verifiedUser, type Tokens } from '../support/people.js';
import { checkScreen, expectAccessible, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: series of an issuer', () => {
  let w: DashboardWorld;
  let owner: Tokens;
  let issuerId: string;
  beforeAll(async () => {
    w = await startDashboard();
    owner = await verifiedUser(w.t.app);
    issuerId = await readyIssuer(w.t, bearer(owner));
  }, 120_000);
  afterAll(async () => w?.close());

  const seriesOf = async (model: number, serie: number) => {
    const list = (await w.t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}/series`, headers: bearer(owner) })).json();
    return list.data.find((s: { model: number; series: number }) => s.model === model && s.series === serie);
  };

  it('sets the NFC-e series 1 to continue at 1,043, then retires it and opens it again', async () => {
    await checkScreen(w, 'issuers-series-form', owner, async (page) => {
      await page.goto(`${w.origin}/dashboard/issuers/${issuerId}`);
      await page.getByTestId('numbering').getByRole('form', { name: 'Alterar uma série' }).waitFor();
    });

    const page = await w.newPage();
    await useSession(page, w.origin, owner);
    page.setDefaultTimeout(45_000);
    await page.goto(`${w.origin}/dashboard/issuers/${issuerId}`);
    const panel = page.getByTestId('numbering');
    await panel.getByLabel('Série', { exact: true }).selectOption({ label: 'NFC-e série 1' });
    await panel.getByLabel('Próximo número').fill('1043');
    await panel.getByRole('button', { name: 'Salvar próximo número' }).click();
    const said = panel.getByTestId('series-change');
    await said.getByText('NFC-e série 1: a próxima nota recebe o número 1043.', { exact: false }).waitFor();
    // 1 to 1042 were never used nor voided: the page says so, with the date to void them by.
    expect(await said.textContent()).toMatch(/Os números 1–1042 ficaram sem uso: inutilize-os até \d{2}\/\d{2}\/\d{4}\./);
    await panel.getByRole('cell', { name: '1043', exact: true }).waitFor();
    expect(await seriesOf(65, 1)).toMatchObject({ next_number: 1043, status: 'active' });

    await panel.getByRole('button', { name: 'Desativar série' }).click();
    await said.getByText('NFC-e série 1 desativada: nenhuma venda é numerada nela.').waitFor();
    await panel.getByRole('cell', { name: '1 (desativada)' }).waitFor();
    expect(await seriesOf(65, 1)).toMatchObject({ status: 'retired' });

    await panel.getByRole('button', { name: 'Reativar série' }).click();
    await said.getByText('NFC-e série 1: a próxima nota recebe o número 1043.').waitFor();
    expect(await seriesOf(65, 1)).toMatchObject({ next_number: 1043, status: 'active' });
    await page.context().close();
  }, 90_000);

  it('opens a new NF-e series 2 starting at 500; opening it again says it exists, in Portuguese', async () => {
    const page = await w.newPage();
    await useSession(page, w.origin, owner);
    page.setDefaultTimeout(45_000);
    await page.goto(`${w.origin}/dashboard/issuers/${issuerId}`);
    const form = page.getByTestId('numbering').getByRole('form', { name: 'Nova série' });
    await form.getByLabel('Modelo').selectOption({ label: 'NF-e' });
    await form.getByLabel('Número da série').fill('2');
    await form.getByLabel('Primeiro número').fill('500');
    await form.getByRole('button', { name: 'Abrir série' }).click();
    await page.getByTestId('numbering').getByRole('cell', { name: '500', exact: true }).waitFor();
    expect(await seriesOf(55, 2)).toMatchObject({ next_number: 500, status: 'active' });
    await form.getByLabel('Número da série').fill('2');
    await form.getByRole('button', { name: 'Abrir série' }).click();
    await form.getByText('O emitente já tem esta série.', { exact: false }).waitFor();
    await expectAccessible(page, 'new series form');
  });
});

