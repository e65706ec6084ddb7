// The issuers screens in a real Chromium: an owner registers an issuer with the test certificate,
// sets its CSC (never shown again) and DANFE template (the preview follows the inputs), voids a
// range of numbers; a viewer sees the same issuer without any action. Each screen accessible.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certFile, multipart } from '../issuers-harness.js';
import { generateNamedTestPfx } from '../support/generate-certificate.js';
import { freshBranchCnpj, sale as newSale, SP_ISSUER, TEST_CSC, waitForSettled } from '../support/nfce-flow.js';
import { bearer, verifiedUser, type Tokens } from '../support/people.js';
import { joinTeam } from '../support/team.js';
import { checkScreen, HAVE_CHROMIUM, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

const TEST_PFX = { file: 'novo_cert_cnpj_06157250000116_senha_minhasenha.pfx', password: 'minhasenha' };

describe.skipIf(!HAVE_CHROMIUM)('dashboard: issuers', () => {
  let w: DashboardWorld;
  let owner: Tokens;
  let issuerId = '';
  beforeAll(async () => {
    w = await startDashboard();
    owner = await verifiedUser(w.t.app);
  }, 120_000);
  afterAll(async () => w?.close());

  const api = async (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) => {
    const r = await w.t.app.inject({ method, url, headers: { ...bearer(owner), ...headers }, ...(payload ? { payload } : {}) });
    return { status: r.statusCode, body: r.json() };
  };
  const signedIn = async (tokens: Tokens = owner) => {
    const page = await w.newPage();
    await useSession(page, w.origin, tokens);
    // A step that cannot happen fails on its own line, well before the test's time runs out.
    page.setDefaultTimeout(45_000);
    return page;
  };
  const openIssuer = (id: string) => async (page: Page) => {
    await page.goto(`${w.origin}/dashboard/issuers/${id}`);
    await page.getByRole('heading', { name: 'Certificado digital A1' }).waitFor();
  };

  it('registers an issuer from the form, uploads the test certificate and sets the CSC, which is never shown again', async () => {
    const page = await signedIn();
    await page.goto(`${w.origin}/dashboard/issuers`);
    await page.getByText('Nenhum emitente cadastrado ainda.').waitFor();
    await page.getByRole('link', { name: 'Novo emitente' }).click();
    await page.getByRole('heading', { name: 'Cadastrar emitente' }).waitFor();

    // A typo in the CNPJ is caught before anything is sent.
    const cnpj = freshBranchCnpj();
    const typo = cnpj.slice(0, 13) + String((Number(cnpj[13]) + 1) % 10);
    await page.getByLabel('CNPJ').fill(typo);
    await page.getByLabel('Inscrição estadual').focus();
    await page.getByText('CNPJ inválido: os dígitos verificadores não conferem.').waitFor();
    await page.getByLabel('CNPJ').fill(`${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`);
    await page.getByLabel('Inscrição estadual').fill(SP_ISSUER.ie);
    await page.getByLabel('Razão social').fill('Padaria Painel Ltda');
    await page.getByLabel('Nome fantasia').fill('Padaria Painel');
    await page.getByLabel('UF').selectOption('SP');
    await page.getByLabel('Logradouro').fill('Avenida Paulista');
    await page.getByRole('textbox', { name: 'Número', exact: true }).fill('1000');
    await page.getByLabel('Bairro').fill('Bela Vista');
    await page.getByRole('combobox', { name: 'Município' }).fill('Sao Pau');
    await page.getByRole('option', { name: 'São Paulo', exact: true }).click();
    // A CEP the gateway refuses: its message is shown on the field.
    await page.getByLabel('CEP').fill('0131');
    await page.getByRole('button', { name: 'Cadastrar emitente' }).click();
    await page.getByTestId('api-error').getByText('endereco.cep', { exact: true }).waitFor();
    expect(await page.getByLabel('CEP').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('CEP').fill('01310-100');
    await page.getByRole('button', { name: 'Cadastrar emitente' }).click();
    await page.getByRole('heading', { name: 'Padaria Painel', exact: true }).waitFor();
    issuerId = page.url().split('/').at(-1)!;
    const created = (await api('GET', `/v1/issuers/${issuerId}`)).body;
    expect(created).toMatchObject({ cnpj, razao_social: 'Padaria Painel Ltda', endereco: { codigo_municipio: '3550308', cep: '01310100' }, missing: ['certificate', 'csc'] });
    await page.getByText('Falta: certificado, CSC').waitFor();

    // The certificate: the .pfx and its password, then what the gateway read from it.
    await page.getByLabel('Arquivo do certificado (.pfx ou .p12)').setInputFiles({ name: 'empresa.pfx', mimeType: 'application/x-pkcs12', buffer: certFile(TEST_PFX.file) });
    await page.getByLabel('Senha do certificado').fill(TEST_PFX.password);
    await page.getByRole('button', { name: 'Enviar certificado' }).click();
    const received = page.getByRole('status').filter({ hasText: 'Certificado recebido.' });
    await received.waitFor();
    const cert = (await api('GET', `/v1/issuers/${issuerId}`)).body.certificate;
    expect(cert.status).toBe('valid');
    expect(await received.textContent()).toContain(cert.subject);
    const section = page.getByTestId('certificate');
    await section.getByText(cert.subject, { exact: true }).waitFor();
    await section.getByText(new Date(cert.not_after).toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' })).first().waitFor();
    await section.getByText('06.157.250/0001-16', { exact: true }).waitFor();
    expect(await page.getByLabel('Senha do certificado').inputValue()).toBe('');

    // The CSC: saved, the input emptied, only its id shown; the issuer is then ready to emit.
    await page.getByLabel('ID do CSC').fill(TEST_CSC.id_csc);
    await page.getByLabel('Código CSC').fill(TEST_CSC.csc);
    await page.getByRole('button', { name: 'Salvar CSC' }).click();
    await page.getByText('CSC salvo. O código não será exibido novamente.').waitFor();
    await page.getByText(/CSC 000001 cadastrado em/).waitFor();
    await page.getByText('Pronto para emitir').waitFor();
    expect(await page.getByLabel('Código CSC').inputValue()).toBe('');
    expect(await page.content()).not.toContain(TEST_CSC.csc);
    const ready = (await api('GET', `/v1/issuers/${issuerId}`)).body;
    expect(ready).toMatchObject({ ready: true, missing: [], csc: { id_csc: TEST_CSC.id_csc } });
    // The issuer emits: the CSC the gateway holds signs the QR code the authority checks.
    const sale = await api('POST', '/v1/nfce', newSale(issuerId), { prefer: 'wait=10' });
    expect(sale.status, JSON.stringify(sale.body)).toBeLessThan(300);
    expect((await waitForSettled(w.t, bearer(owner), sale.body.id)).status).toMatch(/^(authorized|contingency)$/);

    // The doctor: on demand, in Portuguese; the simulated SEFAZ answers 107 to both
    // status services; the self-signed test certificate only warns (a real SEFAZ would refuse it: E07).
    const doctor = page.getByTestId('diagnostics');
    await doctor.getByRole('button', { name: 'Verificar agora' }).click();
    await doctor.getByTestId('diagnostics-verdict').getByText(/^Atenção · /).waitFor();
    await doctor.getByText(/^NFC-e SP: 107 Serviço em Operação/).waitFor();
    await doctor.getByText('Certificado de teste: serve ao sandbox, não à produção.').waitFor();
    await doctor.getByRole('button', { name: 'Verificar de novo' }).waitFor();

  }, 90_000);

  it('edits the issuer\'s data and its NFS-e settings', async () => {
    const page = await signedIn();
    await openIssuer(issuerId)(page);
    await page.getByRole('button', { name: 'Editar dados' }).click();
    await page.getByLabel('Razão social').fill('Padaria Painel Comércio Ltda');
    await page.getByRole('textbox', { name: 'Complemento' }).fill('Loja 2');
    await page.getByRole('button', { name: 'Salvar dados' }).click();
    await page.getByRole('definition').getByText('Padaria Painel Comércio Ltda', { exact: true }).waitFor();
    await page.getByText(/Avenida Paulista, 1000 · Loja 2 · Bela Vista · São Paulo/).waitFor();
    const body = (await api('GET', `/v1/issuers/${issuerId}`)).body;
    expect(body).toMatchObject({ razao_social: 'Padaria Painel Comércio Ltda', endereco: { complemento: 'Loja 2', codigo_municipio: '3550308' }, nfse: null });

    // NFS-e: configured from the page; the DPS series shows in the numbering.
    const nfse = page.getByTestId('nfse');
    await nfse.getByText('NFS-e não configurada para este emitente.').waitFor();
    await nfse.getByRole('button', { name: 'Configurar NFS-e' }).click();
    await nfse.getByLabel('Inscrição municipal').fill('12345');
    await nfse.getByLabel('Série da DPS (NFS-e)').fill('7');
    await nfse.getByLabel('Regime de apuração do Simples Nacional').selectOption('1');
    await nfse.getByRole('button', { name: 'Salvar NFS-e' }).click();
    await nfse.getByRole('button', { name: 'Editar NFS-e' }).waitFor();
    await page.getByTestId('numbering').getByRole('row').filter({ hasText: 'NFS-e' }).getByRole('cell', { name: '7', exact: true }).waitFor();
    expect((await api('GET', `/v1/issuers/${issuerId}`)).body.nfse).toMatchObject({ municipal_registration: '12345', dps_series: 7, simples_regime: 1, special_regime: 0 });
  });

  it('previews the DANFE settings as they are typed and saves them', async () => {
    const page = await signedIn();
    await openIssuer(issuerId)(page);
    const preview = page.getByTestId('danfe-preview');
    expect(await preview.getAttribute('data-color')).toBe('#000000');
    expect(await page.getByTestId('danfe-preview-footer').count()).toBe(0);
    await page.getByLabel('Texto do rodapé').fill('Volte sempre! Pão quentinho às 7h.');
    await page.getByTestId('danfe-preview-footer').getByText('Volte sempre! Pão quentinho às 7h.').waitFor();
    await page.getByRole('textbox', { name: 'Cor principal' }).fill('#1a73e8');
    await expect.poll(() => preview.getAttribute('data-color')).toBe('#1a73e8');
    await page.getByRole('button', { name: 'Salvar personalização' }).click();
    await page.getByText('Personalização salva.').waitFor();
    const saved = (await api('GET', `/v1/issuers/${issuerId}`)).body.danfe_settings;
    expect(saved.danfeFooterText).toBe('Volte sempre! Pão quentinho às 7h.');
    expect(saved.danfePrimaryColor.toLowerCase()).toBe('#1a73e8');
    // The issuer's latest NFC-e: its DANFE (with the saved template) is one link away.
    const href = await page.getByRole('link', { name: 'Baixar o DANFE (PDF) da última NFC-e deste emitente' }).getAttribute('href');
    const pdf = await w.t.app.inject({ method: 'GET', url: href!, headers: bearer(owner) });
    expect(pdf.headers['content-type']).toContain('application/pdf');
  });

  it('turns the buyer e-mail on with a sender name; a bad accountant address shows the gateway\'s field error', async () => {
    const page = await signedIn();
    await openIssuer(issuerId)(page);
    const section = page.getByTestId('buyer-email');
    await section.getByText('Ao autorizar uma nota, o comprador recebe por e-mail').waitFor();
    await section.getByLabel('Enviar DANFE e XML ao comprador').check();
    await section.getByLabel('Nome do remetente').fill('Padaria Pão Quente');
    await section.getByLabel('Cópia oculta para a contabilidade').fill('contabilidade-sem-arroba');
    await section.getByRole('button', { name: 'Salvar e-mail ao comprador' }).click();
    // The gateway's 422 names the field; the form marks that input (Mantine sets aria-invalid with its error).
    await expect.poll(() => section.getByLabel('Cópia oculta para a contabilidade').getAttribute('aria-invalid')).toBe('true');
    expect(await section.getByLabel('Nome do remetente').getAttribute('aria-invalid')).not.toBe('true');
    expect((await api('GET', `/v1/issuers/${issuerId}/buyer-email`)).body.enabled).toBe(false);
    await section.getByLabel('Cópia oculta para a contabilidade').fill('fiscal@contabilidade.example');
    await section.getByRole('button', { name: 'Salvar e-mail ao comprador' }).click();
    await section.getByText('Configuração de e-mail salva.').waitFor();
    expect((await api('GET', `/v1/issuers/${issuerId}/buyer-email`)).body).toMatchObject({
      enabled: true, sender_name: 'Padaria Pão Quente', accountant_email: 'fiscal@contabilidade.example',
    });
  });

  it('refuses a short justification with the gateway\'s message, then voids a range and shows the protocol', async () => {
    const page = await signedIn();
    await openIssuer(issuerId)(page);
    const form = page.getByTestId('inutilization');
    await form.getByLabel('Série').fill('1');
    await form.getByLabel('Número inicial').fill('500');
    await form.getByLabel('Número final').fill('502');
    await form.getByLabel('Justificativa').fill('curta');
    await form.getByRole('button', { name: 'Inutilizar números' }).click();
    await form.getByTestId('api-error').getByText('justification', { exact: true }).waitFor();
    expect(await form.getByLabel('Justificativa').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Justificativa').fill('Falha no PDV pulou a numeracao');
    await form.getByRole('button', { name: 'Inutilizar números' }).click();
    const result = page.getByTestId('inutilization-result');
    await result.getByText('Números inutilizados').waitFor();
    await result.getByText('Série 1, números 500 a 502').waitFor();
    expect(await result.textContent()).toMatch(/Protocolo\d{15}/);
    expect(await form.getByTestId('api-error').count()).toBe(0);
  });

  it('flags a certificate ending within 30 days in the list', async () => {
    const created = await api('POST', '/v1/issuers', { ...SP_ISSUER, cnpj: freshBranchCnpj(), nome_fantasia: 'Filial Vencendo' });
    expect(created.status).toBe(201);
    const pfx = generateNamedTestPfx([{ shortName: 'CN', value: 'EMPRESA DE TESTE LTDA:06157250000116' }], 'senha', new Date(Date.now() + 10 * 86_400_000));
    const body = multipart({ password: 'senha' }, { name: 'pfx', filename: 'cert.pfx', content: pfx });
    const up = await w.t.app.inject({ method: 'POST', url: `/v1/issuers/${created.body.id}/certificate`, headers: { ...bearer(owner), ...body.headers }, payload: body.payload });
    expect(up.statusCode, up.body).toBe(201);
    const page = await signedIn();
    await page.goto(`${w.origin}/dashboard/issuers`);
    const row = page.getByRole('row').filter({ hasText: 'Filial Vencendo' });
    expect(await row.getByTestId('cert-expiring').textContent()).toMatch(/^Vence em (9|10) dias$/);
    expect(await page.getByRole('row').filter({ hasText: 'Padaria Painel' }).getByTestId('cert-expiring').count()).toBe(0);
  });

  it('shows a viewer the issuer without any action', async () => {
    const viewer = await joinTeam(w.t.app, owner, 'viewer');
    const page = await signedIn(viewer);
    await page.goto(`${w.origin}/dashboard/issuers`);
    await page.getByRole('link', { name: 'Padaria Painel' }).click();
    await page.getByRole('heading', { name: 'Certificado digital A1' }).waitFor();
    await page.getByTestId('certificate').getByText('06.157.250/0001-16', { exact: true }).waitFor();
    await page.getByTestId('danfe-preview-footer').waitFor();
    for (const name of ['Editar dados', 'Enviar certificado', 'Salvar CSC', 'Salvar personalização', 'Inutilizar números', 'Editar NFS-e', 'Arquivar'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    expect(await page.getByLabel('Arquivo do certificado (.pfx ou .p12)').count()).toBe(0);
    await page.goto(`${w.origin}/dashboard/issuers`);
    await page.getByRole('link', { name: 'Padaria Painel' }).waitFor();
    expect(await page.getByRole('link', { name: 'Novo emitente' }).count()).toBe(0);
  });

  // An issuer is never deleted; archived it is read-only and not counted by the plan.
  it('archives an issuer ("Arquivado", read-only notice) and reactivates it', async () => {
    const created = await api('POST', '/v1/issuers', { ...SP_ISSUER, cnpj: freshBranchCnpj(), nome_fantasia: 'Filial Arquivada' });
    expect(created.status).toBe(201);
    const page = await signedIn();
    await openIssuer(created.body.id as string)(page);
    await page.getByRole('button', { name: 'Arquivar' }).click();
    await page.getByRole('button', { name: 'Reativar' }).waitFor();
    await page.getByText('Arquivado', { exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Emitente arquivado: somente leitura.' }).waitFor();
    expect((await api('GET', `/v1/issuers/${created.body.id as string}`)).body.archived_at).not.toBeNull();
    await page.getByRole('button', { name: 'Reativar' }).click();
    await page.getByRole('button', { name: 'Arquivar' }).waitFor();
    expect(await page.getByText('Arquivado', { exact: true }).count()).toBe(0);
    expect((await api('GET', `/v1/issuers/${created.body.id as string}`)).body.archived_at).toBeNull();
  });

  it('keeps the list, the form and the issuer page accessible on a desktop and a phone', async () => {
    await checkScreen(w, 'issuers-list', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/issuers`);
      await p.getByRole('link', { name: 'Padaria Painel' }).waitFor();
    });
    await checkScreen(w, 'issuers-create', owner, async (p) => {
      await p.goto(`${w.origin}/dashboard/issuers/new`);
      await p.getByLabel('UF').locator('option[value="SP"]').waitFor({ state: 'attached' });
    });
    await checkScreen(w, 'issuers-detail', owner, openIssuer(issuerId));
  }, 90_000);
});
