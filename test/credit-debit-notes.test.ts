import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { xmllintFailures } from './support/nfce-checks.js';
import { tempFile } from './support/xml-tools.js';
import { NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';
import { creditNote, debitNote, ownKey } from './support/adjustment-notes.js';
import { nfeVerdict } from './support/simulator-verdict.js';

// Credit and debit notes of the tax reform (finNFe 5 / 6, NT 2025.002-RTC; docs/fiscal/credit-debit-notes.md):
// the request fields, the 422s naming them, and the XML in the order of leiauteNFe PL_010 v1.40.

const REFORM = { ...NFE_CONTEXT, taxReform: true, today: '2026-11-28' };
const ISSUER_CNPJ = NFE_CONTEXT.issuer.cnpj;

function fieldsOf(req: NfeRequest, ctx = REFORM): string[] {
  const p = prepareNfe(req, ctx);
  return p.ok ? [] : p.errors.map((e) => e.field);
}

function built(req: NfeRequest) {
  const p = prepareNfe(req, REFORM);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext({ emittedAt: new Date('2026-11-28T13:00:00Z') }));
}

describe('the XML of a credit and a debit note', () => {
  it('a nota de crédito 04: finNFe 5 then tpNFCredito 04 before indFinal, tpNF 0, refNFe, IBS/CBS alone; passes PL_010 v1.40', async () => {
    const b = built(creditNote());
    expect(b.xml).toMatch(/<tpNF>0<\/tpNF>/);
    expect(b.xml).toContain('<finNFe>5</finNFe><tpNFCredito>04</tpNFCredito><indFinal>0</indFinal>');
    expect(b.xml).not.toContain('tpNFDebito');
    expect(b.xml).toContain(`<NFref><refNFe>${ownKey(41)}</refNFe></NFref>`);
    // B25-80: no ICMS, IPI, PIS, COFINS in the item.
    const imposto = /<imposto>(.*?)<\/imposto>/.exec(b.xml)![1]!;
    expect(imposto).not.toMatch(/<ICMS>|<IPI>|<PIS>|<COFINS>|<ICMSUFDest>/);
    // Hand figures (LC 214/2025 arts. 343 and 346, 2026 test rates): vBC 200.00; IBS UF 0.10% = 0.20,
    // IBS Mun 0% = 0.00, CBS 0.90% = 1.80.
    expect(imposto).toMatch(/^<IBSCBS><CST>000<\/CST><cClassTrib>000001<\/cClassTrib><gIBSCBS><vBC>200\.00<\/vBC><gIBSUF><pIBSUF>0\.10<\/pIBSUF><vIBSUF>0\.20<\/vIBSUF><\/gIBSUF><gIBSMun><pIBSMun>0\.00<\/pIBSMun><vIBSMun>0\.00<\/vIBSMun><\/gIBSMun><vIBS>0\.20<\/vIBS><gCBS><pCBS>0\.90<\/pCBS><vCBS>1\.80<\/vCBS><\/gCBS><\/gIBSCBS><\/IBSCBS>$/);
    expect(b.xml).toContain('<vICMS>0.00</vICMS>');
    expect(b.xml).toContain('<vPIS>0.00</vPIS><vCOFINS>0.00</vCOFINS>');
    expect(b.xml).toContain('<vNF>200.00</vNF>');
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('credit-note.xml', b.xml)])).toBe('');
  });

  it('a nota de débito 06: finNFe 6 then tpNFDebito 06, tpNF 1, IBS/CBS alone; passes PL_010 v1.40', async () => {
    const b = built(debitNote());
    expect(b.xml).toMatch(/<tpNF>1<\/tpNF>/);
    expect(b.xml).toContain('<finNFe>6</finNFe><tpNFDebito>06</tpNFDebito><indFinal>0</indFinal>');
    expect(b.xml).not.toContain('<NFref>');
    // Hand figures: vBC 500.00; IBS UF 0.10% = 0.50; CBS 0.90% = 4.50.
    expect(b.xml).toMatch(/<vIBSUF>0\.50<\/vIBSUF>.*<vCBS>4\.50<\/vCBS>/);
    expect(/<imposto>(.*?)<\/imposto>/.exec(b.xml)![1]).not.toMatch(/<ICMS>|<PIS>|<COFINS>/);
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('debit-note.xml', b.xml)])).toBe('');
  });
});

describe('the gateway refuses a broken credit or debit note with a 422 naming the field', () => {
  it('the type: required with its purpose (B25.2-20, B25.1-20), refused with another (B25.2-10, B25.1-10)', () => {
    expect(fieldsOf(creditNote({ credit_type: undefined }))).toEqual(['credit_type']);
    expect(fieldsOf(debitNote({ debit_type: undefined }))).toEqual(['debit_type']);
    expect(fieldsOf(debitNote({ credit_type: '04' }))).toEqual(['credit_type']);
    expect(fieldsOf(creditNote({ debit_type: '06' }))).toEqual(['debit_type']);
  });

  it('the types the gateway does not issue yet, each with why', () => {
    const p = prepareNfe(creditNote({ credit_type: '05' }), REFORM);
    expect(p.ok ? [] : p.errors).toEqual([expect.objectContaining({ field: 'credit_type', message: expect.stringContaining('UB106-30') })]);
    expect(fieldsOf(debitNote({ debit_type: '04' }))).toEqual(['debit_type']);
  });

  it('the direction: a credit note is inbound (B25-110), a debit note outbound (B25-120)', () => {
    const credit = creditNote();
    credit.items[0]!.cfop = '5949';
    expect(prepareNfe(credit, REFORM)).toMatchObject({ ok: false, errors: [{ field: 'items[0].cfop', rule: 'B25-110' }] });
    const debit = debitNote();
    debit.items[0]!.cfop = '1949';
    expect(prepareNfe(debit, REFORM)).toMatchObject({ ok: false, errors: [{ field: 'items[0].cfop', rule: 'B25-120' }] });
  });

  it('IBS/CBS only: an ICMS, PIS or IPI field on an item is refused (B25-80, 1001)', () => {
    const req = debitNote();
    req.items[0] = { ...req.items[0]!, cst_icms: '00', pICMS: 18, pis: { cst: '01', rate: 0.65 } };
    expect(prepareNfe(req, REFORM)).toMatchObject({ ok: false, errors: [
      { field: 'items[0].cst_icms', rule: 'B25-80' }, { field: 'items[0].pICMS', rule: 'B25-80' }, { field: 'items[0].pis', rule: 'B25-80' },
    ] });
  });

  it('the referenced note of a credit note 03/04: one (B25-30, B25-40), an NF-e (B25-100), of this issuer (B25-50) and state (B25-60)', () => {
    const rules = (refs: string[]) => {
      const p = prepareNfe(creditNote({ referenced_documents: refs }), REFORM);
      return p.ok ? [] : p.errors.map((e) => `${e.field} ${e.rule}`);
    };
    expect(rules([])).toEqual(['referenced_documents B25-30']);
    expect(rules([ownKey(41), ownKey(42)])).toEqual(['referenced_documents B25-40']);
    expect(rules([ownKey(41, '65')])).toEqual(['referenced_documents[0] B25-100']);
    expect(rules([ownKey(41, '55', '11222333000181')])).toEqual(['referenced_documents[0] B25-50']);
    expect(rules([ownKey(41, '55', ISSUER_CNPJ, '33')])).toEqual(['referenced_documents[0] B25-60']);
    // Type 03 (return refused at delivery) may reference the NFC-e of the sale.
    expect(fieldsOf(creditNote({ credit_type: '03', referenced_documents: [ownKey(41, '65')] }))).toEqual([]);
  });

  it('needs the reform groups: refused for a legacy account and for a Simples issuer in 2026', () => {
    expect(fieldsOf(creditNote(), { ...REFORM, taxReform: false })).toEqual(['finalidade']);
    expect(fieldsOf(debitNote(), { ...REFORM, issuer: { ...REFORM.issuer, crt: 1 } })).toEqual(['finalidade']);
  });
});

describe('the simulated authority, its whole chain, on the notes the gateway builds', () => {
  const now = new Date('2026-11-28T13:00:05Z');

  it('authorizes the credit note 04 and 03 and the debit note 06, also interstate to a non-taxpayer consumer (no DIFAL: B25-80)', () => {
    expect(nfeVerdict(built(creditNote()).xml, { now, signature: true })).toBeNull();
    expect(nfeVerdict(built(creditNote({ credit_type: '03' })).xml, { now, signature: true })).toBeNull();
    expect(nfeVerdict(built(debitNote()).xml, { now, signature: true })).toBeNull();
    const consumer: NfeRequest['destinatario'] = {
      cpf: '52998224725', name: 'Maria da Silva', indicador_ie: 'nao_contribuinte',
      address: { street: 'Rua B', number: '2', district: 'Centro', city_code: '3304557', city: 'Rio de Janeiro', uf: 'RJ', cep: '20010000' },
    };
    const interstate = debitNote({ destinatario: consumer, presenca: 'internet' });
    interstate.items[0]!.cfop = '6949';
    const xml = built(interstate).xml;
    expect(xml).toContain('<idDest>2</idDest>');
    expect(xml).toContain('<indFinal>1</indFinal>');
    expect(xml).not.toContain('ICMSUFDest');
    expect(nfeVerdict(xml, { now, signature: true })).toBeNull();
  });
});
