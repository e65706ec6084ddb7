import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildNfce, InvalidSaleError } from '../src/documents/nfce/domain/build-nfce.js';
import { csrtHash } from '../src/fiscal/xml/nfe/inf-nfe.js';
import { HOMOLOGATION_ITEM_DESCRIPTION, HOMOLOGATION_RECIPIENT_NAME } from '../src/fiscal/layout/homologation.js';
import { ALPHANUMERIC_ISSUER, NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';
import { qrProblems, xmllintFailures, xmlsecFailures } from './support/nfce-checks.js';

const dir = mkdtempSync(join(tmpdir(), 'nfce-doc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const save = (name: string, xml: string) => {
  const file = join(dir, name);
  writeFileSync(file, xml);
  return file;
};
const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
const consumer = { cpf: '52998224725', name: 'Maria Souza', email: 'maria@example.com' };

describe('buildNfce document', () => {
  it('writes the NFC-e fixed fields and nothing NFC-e forbids', () => {
    const { xml } = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER));
    const ide = /<ide>.*<\/ide>/.exec(xml)![0];
    expect(ide).toContain('<mod>65</mod>');
    expect(ide).toMatch(/<dhEmi>[^<]+<\/dhEmi><tpNF>1<\/tpNF><idDest>1<\/idDest><cMunFG>3550308<\/cMunFG><tpImp>4<\/tpImp><tpEmis>1<\/tpEmis>/);
    expect(ide).toMatch(/<finNFe>1<\/finNFe><indFinal>1<\/indFinal><indPres>1<\/indPres><procEmi>0<\/procEmi>/);
    expect(xml).not.toContain('dhSaiEnt');
    expect(xml).not.toContain('indIntermed');
    expect(xml).toContain('<transp><modFrete>9</modFrete></transp>');
    expect(tag(xml, 'dhEmi')).toBe('2026-07-15T12:04:05-03:00');
  });

  it('writes the homologation phrases in tpAmb 2 and the real text in tpAmb 1', () => {
    const sale = simpleSale({ consumer });
    const homolog = buildNfce(sale, testContext(NUMERIC_ISSUER, { tpAmb: 2 })).xml;
    expect(tag(homolog, 'xProd')).toBe(HOMOLOGATION_ITEM_DESCRIPTION);
    expect(/<dest>.*<xNome>([^<]*)<\/xNome>/.exec(homolog)![1]).toBe(HOMOLOGATION_RECIPIENT_NAME);
    const prod = buildNfce(sale, testContext(NUMERIC_ISSUER, { tpAmb: 1 })).xml;
    expect(prod.match(/<xProd>([^<]*)<\/xProd>/g)).toEqual(['<xProd>Cafe torrado 500g</xProd>', '<xProd>Pão francês</xProd>']);
    expect(prod).toContain('<dest><CPF>52998224725</CPF><xNome>Maria Souza</xNome><indIEDest>9</indIEDest><email>maria@example.com</email></dest>');
  });

  it('emits infNFe already in Canonical XML 1.0 form, and its digest is the signed one', () => {
    const sale = simpleSale({ additional_info: 'Obrigado & volte sempre <3\r\n"aspas"', items: [{ ...simpleSale().items[0]!, description: 'Tomate & <Cebola> "bio"' }] });
    const built = buildNfce(sale, testContext(NUMERIC_ISSUER, { tpAmb: 1 }));
    const file = save('c14n.xml', built.xml);
    const canonical = execFileSync('xmllint', ['--c14n', file], { encoding: 'utf8' });
    const ours = /<infNFe .*<\/infNFe>/.exec(built.xml)![0];
    expect(/<infNFe .*<\/infNFe>/.exec(canonical)![0]).toBe(ours);
    expect(ours).toContain('<xProd>Tomate &amp; &lt;Cebola&gt; "bio"</xProd>');
    const withNs = ours.replace('<infNFe ', '<infNFe xmlns="http://www.portalfiscal.inf.br/nfe" ');
    expect(createHash('sha1').update(withNs).digest('base64')).toBe(built.digestValue);
    expect(tag(built.xml, 'DigestValue')).toBe(built.digestValue);
  });

  it('issues in offline contingency with dhCont, xJust and the offline QR code', async () => {
    const ctx = testContext(NUMERIC_ISSUER, { tpAmb: 1, tpEmis: 9, contingency: { at: new Date('2026-07-15T14:00:00Z'), reason: 'Sem conexao com a SEFAZ autorizadora' } });
    const built = buildNfce(simpleSale(), ctx);
    expect(built.accessKey[34]).toBe('9');
    expect(built.xml).toContain('<dhCont>2026-07-15T11:00:00-03:00</dhCont><xJust>Sem conexao com a SEFAZ autorizadora</xJust>');
    expect(built.qrCodeUrl).toContain(`?p=${built.accessKey}|2|1|15|43.83|`);
    expect(qrProblems(built.xml, ctx.csc!.token)).toEqual([]);
    const file = save('offline.xml', built.xml);
    expect(await xmllintFailures('PL_009_V4', [file])).toBe('');
    expect(await xmlsecFailures([file])).toEqual([]);
  });

  it('adds the reform groups and totals when taxReform is on (PL_010 only)', async () => {
    const sale = simpleSale({ items: [{ description: 'Bebida', quantity: 1, unit_price: 100, ncm: '22021000', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, reform: { selective_tax: { cst: '000', class_code: '000001', rate: 10 } } }], payment: { method: 'pix', amount: 100 } });
    const built = buildNfce(sale, testContext(NUMERIC_ISSUER, { taxReform: true }));
    expect(built.schemaPackage).toBe('PL_010');
    // IBS/CBS base (NT 2025.002 UB16-10, 2026; docs/fiscal/tax-reform.md): 100.00 - ICMS 18.00 - PIS 0.65
    // - COFINS 3.00 = 78.35 (the IS enters it only from 2027); IBS 0.07835 -> 0.08, CBS 0.70515 -> 0.71;
    // IS 10% of 100.00 = 10.00; vNFTot = vNF = 100.00 (2026: IBS, CBS and IS enter the total from 2027,
    // NT 2025.002 VB01-10 Exceção 1 and W60-10).
    expect(built.totals).toMatchObject({ vNF: 100, vIBS: 0.08, vCBS: 0.71, vIS: 10, vNFTot: 100 });
    expect(built.items[0]).toMatchObject({ vICMS: 18, vIBS: 0.08, vCBS: 0.71, vIS: 10 });
    expect(built.xml).toContain('<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>78.35</vBC><gIBSUF><pIBSUF>0.10</pIBSUF><vIBSUF>0.08</vIBSUF></gIBSUF><gIBSMun><pIBSMun>0.00</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>0.08</vIBS><gCBS><pCBS>0.90</pCBS><vCBS>0.71</vCBS></gCBS></gIBSCBS></IBSCBS>');
    expect(built.xml).toContain('<ISTot><vIS>10.00</vIS></ISTot>');
    expect(built.xml).toContain('<vNFTot>100.00</vNFTot></total>');
    const file = save('reform.xml', built.xml);
    expect(await xmllintFailures('PL_010_V1.30', [file])).toBe('');
    expect(await xmllintFailures('PL_009_V4', [file])).not.toBe('');
  });

  it('uses PL_010 for an alphanumeric CNPJ and writes it in the key', () => {
    const built = buildNfce(simpleSale({ items: [{ ...simpleSale().items[0]!, cst_icms: '102', pICMS: undefined }] }), testContext(ALPHANUMERIC_ISSUER));
    expect(built.schemaPackage).toBe('PL_010');
    expect(built.accessKey.slice(6, 20)).toBe('PC3D315K000193');
  });

  it('writes home delivery (indPres 4 with indIntermed 0), card group, change and infRespTec with CSRT', async () => {
    const sale = simpleSale({
      home_delivery: true,
      consumer: { ...consumer, address: { street: 'Rua B', number: '10', district: 'Se', city_code: '3550308', city: 'Sao Paulo', uf: 'SP', cep: '01001000' } },
      transporte: { modalidade: 'emitente', transportadora: { cnpj: '10422724000187', name: 'Entregas Rapidas Ltda', uf: 'SP' } },
      payments: [{ method: 'credito', amount: 20, card_brand: 'elo', integrated: true, acquirer_cnpj: '01027058000191', card_authorization: '123456' }, { method: 'dinheiro', amount: 30 }],
      payment: undefined,
    });
    const ctx = testContext(NUMERIC_ISSUER, { respTec: { cnpj: '10422724000187', contato: 'Suporte', email: 'dev@example.com', fone: '1130000000', csrt: { id: '1', token: 'G8063VRTNDMO886SFNK5LDUDEI24XJ22YIPO' } } });
    const built = buildNfce(sale, ctx);
    expect(built.xml).toContain('<indPres>4</indPres><indIntermed>0</indIntermed>');
    expect(built.xml).toContain('<detPag><tPag>03</tPag><vPag>20.00</vPag><card><tpIntegra>1</tpIntegra><CNPJ>01027058000191</CNPJ><tBand>06</tBand><cAut>123456</cAut></card></detPag><detPag><tPag>01</tPag><vPag>30.00</vPag></detPag><vTroco>6.17</vTroco></pag>');
    expect(built.xml).toContain(`<infRespTec><CNPJ>10422724000187</CNPJ><xContato>Suporte</xContato><email>dev@example.com</email><fone>1130000000</fone><idCSRT>01</idCSRT><hashCSRT>${csrtHash('G8063VRTNDMO886SFNK5LDUDEI24XJ22YIPO', built.accessKey)}</hashCSRT></infRespTec>`);
    expect(built.totals.vTroco).toBe(6.17);
    expect(await xmllintFailures('PL_009_V4', [save('delivery.xml', built.xml)])).toBe('');
  });

  it('refuses an invalid sale with the field errors', () => {
    expect(() => buildNfce(simpleSale({ items: [{ ...simpleSale().items[0]!, ncm: '123' }] }), testContext(NUMERIC_ISSUER))).toThrow(InvalidSaleError);
  });
});
