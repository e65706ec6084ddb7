import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { issueNfseSettled, nfseIssuer, serviceInvoice } from './support/nfse-flow.js';
import { tempFile, xmllint } from './support/xml-tools.js';

const run = promisify(execFile);

// The sandbox DANFSe showed the certificate's name as the company and
// "ENDERECO NAO CADASTRADO NO SIMULADOR", CEP 00000-000. Sefin Nacional writes the NFS-e's emit
// (xNome, xFant, enderNac) from its registers, not from the DPS (Anexo I E0128: the DPS may omit the
// provider's address); the sandbox feeds the simulator's register from the issuer the gateway holds.

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth } = await emittingApp());
  issuerId = await nfseIssuer(t, auth);
});
afterAll(async () => t.runtime.close());

const emitOf = (xml: string) => /<emit>(.*?)<\/emit>/s.exec(xml)?.[1] ?? '';

async function issued(): Promise<{ xml: string; pdfText: string }> {
  const { note } = await issueNfseSettled(t, auth, serviceInvoice(issuerId));
  expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
  const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfse/${note.id}/xml`, headers: auth })).body;
  expect(await xmllint(xml, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
  const pdf = await t.app.inject({ method: 'GET', url: `/v1/nfse/${note.id}/danfse.pdf`, headers: auth });
  expect(pdf.statusCode).toBe(200);
  const pdfText = (await run('pdftotext', ['-layout', tempFile('danfse.pdf', pdf.rawPayload), '-'])).stdout;
  return { xml, pdfText };
}

describe('the simulated Sefin writes the emit from the issuer the gateway registered', () => {
  it('the issuer as created: legal and trade name, street, number, district, municipality, CEP', async () => {
    const { xml, pdfText } = await issued();
    const emit = emitOf(xml);
    expect(emit).toContain('<xNome>Padaria Exemplo Ltda</xNome>');
    expect(emit).toContain('<xFant>Padaria Exemplo</xFant>');
    expect(emit).toContain('<enderNac><xLgr>Avenida Paulista</xLgr><nro>1000</nro><xBairro>Bela Vista</xBairro><cMun>3550308</cMun><UF>SP</UF><CEP>01310100</CEP></enderNac>');
    expect(xml).not.toContain('NAO CADASTRADO');
    expect(pdfText).toContain('Padaria Exemplo Ltda');
    expect(pdfText).toContain('Avenida Paulista, 1000');
    expect(pdfText).toContain('01310-100');
    expect(pdfText).not.toContain('00000-000');
  });

  it('the issuer as changed; another account registering the same CNPJ does not rename it', async () => {
    const patched = await t.app.inject({
      method: 'PATCH', url: `/v1/issuers/${issuerId}`, headers: auth,
      payload: {
        razao_social: 'Padaria Exemplo Comercio de Paes Ltda',
        endereco: { logradouro: 'Rua Augusta', numero: '250', complemento: 'Loja 2', bairro: 'Consolacao', codigo_municipio: '3550308', cep: '01305-000' },
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Another account, the same CNPJ, another name: its own tenant's record.
    const cnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().cnpj as string;
    const other = await t.newAccount();
    const stranger = await t.app.inject({
      method: 'POST', url: '/v1/issuers', headers: other.auth,
      payload: { cnpj, razao_social: 'Outra Empresa Qualquer Ltda', ie: '110042490114', uf: 'SP', ambiente: 'homologacao', regime_tributario: 'simples', endereco: { logradouro: 'Rua Falsa', numero: '1', bairro: 'Centro', codigo_municipio: '3550308', cep: '01001-000' } },
    });
    expect(stranger.statusCode, stranger.body).toBe(201);

    const emit = emitOf((await issued()).xml);
    expect(emit).toContain('<xNome>Padaria Exemplo Comercio de Paes Ltda</xNome>');
    expect(emit).toContain('<enderNac><xLgr>Rua Augusta</xLgr><nro>250</nro><xCpl>Loja 2</xCpl><xBairro>Consolacao</xBairro><cMun>3550308</cMun><UF>SP</UF><CEP>01305000</CEP></enderNac>');
    expect(emit).not.toContain('Outra Empresa');
  });
});
