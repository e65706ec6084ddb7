import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { issueNfseSettled, nfseIssuer, serviceInvoice } from './support/nfse-flow.js';
import { xmllint } from './support/xml-tools.js';

// An NFS-e with the reform group end to end (docs/fiscal/nfse-reform.md): the gateway's IBS/CBS figures and the
// group the simulated Sefin writes into the NFS-e agree, and the NFS-e passes the national XSD.

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth } = await emittingApp());
  issuerId = await nfseIssuer(t, auth);
  const patched = await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: auth, payload: { taxRegime: 'reform_2026' } });
  if (patched.statusCode !== 200) throw new Error(`PATCH /v1/account: ${patched.statusCode} ${patched.body}`);
}, 120_000);
afterAll(async () => t.runtime.close());

describe('NFS-e with IBS/CBS (reform_2026) through the simulated Sefin', () => {
  it('R$ 1,000.00 with ISSQN 5 % withheld by the taker: vBC 950.00, IBS UF 0.95, CBS 8.55 in the values and in the NFS-e', async () => {
    // The test issuer is an ME/EPP of the Simples (no PIS/COFINS due in the DPS); its ISSQN rate is given because
    // it is withheld (E0625). vBC = 1000.00 - 50.00 (ISSQN) = 950.00 (XSD vBC); IBS UF 950.00 x 0.10 % = 0.95,
    // Mun 0, CBS 950.00 x 0.90 % = 8.55 (LC 214/2025 arts. 343, 346); vTotNF = vLiq = 1000.00 - 50.00 = 950.00 (2026).
    const payload = serviceInvoice(issuerId, {
      competence_date: '2026-11-27',
      values: { service_amount: 1000, iss: { retained: 'tomador', rate: 5 }, simples_nacional_rate: 6 },
      reform: { operation_code: '100301', cst: '000', class_code: '000001' },
    });
    const { note } = await issueNfseSettled(t, auth, payload);
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    expect(note.values).toMatchObject({ vISSQN: 50, vLiq: 950, vBCIBSCBS: 950, vIBSUF: 0.95, vIBSMun: 0, vIBSTot: 0.95, vCBS: 8.55, vTotNF: 950 });
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfse/${note.id}/xml`, headers: auth })).body;
    // 100301: the place of the operation is the taker's domicile (São Paulo, 3550308; Anexo C).
    expect(xml).toContain('<IBSCBS><cLocalidadeIncid>3550308</cLocalidadeIncid><xLocalidadeIncid>São Paulo</xLocalidadeIncid><valores><vBC>950.00</vBC>');
    expect(xml).toContain('<totCIBS><vTotNF>950.00</vTotNF><gIBS><vIBSTot>0.95</vIBSTot><gIBSUFTot><vIBSUF>0.95</vIBSUF></gIBSUFTot><gIBSMunTot><vIBSMun>0.00</vIBSMun></gIBSMunTot></gIBS><gCBS><vCBS>8.55</vCBS></gCBS></totCIBS></IBSCBS>');
    expect(await xmllint(xml, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
  });
});
