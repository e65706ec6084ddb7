import { describe, expect, it } from 'vitest';
import { NFE_CONTEXT, interstateRequest } from '../../../../test/support/nfe-fixtures.js';
import { NUMERIC_ISSUER } from '../../../../test/support/nfce-fixtures.js';
import type { NfeRequest } from './nfe-request.js';
import { accessKeyCheckDigit } from '../../../fiscal/layout/access-key.js';
import { prepareNfe } from './prepare-nfe.js';
import { validateNfeRequest } from './validate-nfe.js';

// Each error names the request field and says what to fix, before any number is reserved.

const BODY = '3526071122233300018155001000000001100000001';
/** A key of a note of another issuer (CNPJ 11222333000181), check digit right. */
const OTHER_KEY = BODY + accessKeyCheckDigit(BODY);
const fields = (req: NfeRequest, ctx = NFE_CONTEXT) => validateNfeRequest(req, ctx).map((e) => e.field);
const messageOf = (req: NfeRequest, field: string) => validateNfeRequest(req, NFE_CONTEXT).find((e) => e.field === field)?.message ?? '';

/** SP -> SP sale to a taxpayer: internal, no DIFAL. */
function internalRequest(): NfeRequest {
  const req = interstateRequest();
  req.destinatario = {
    cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', indicador_ie: 'contribuinte', ie: '112006603110',
    address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3509502', city: 'Campinas', uf: 'SP' },
  };
  req.items = req.items.map(({ difal: _difal, ...it }) => ({ ...it, cfop: '5102' }));
  req.presenca = 'nao_se_aplica';
  return req;
}

describe('validateNfeRequest', () => {
  it('accepts the interstate sale with DIFAL and the internal sale to a taxpayer', () => {
    expect(validateNfeRequest(interstateRequest(), NFE_CONTEXT)).toEqual([]);
    expect(validateNfeRequest(internalRequest(), NFE_CONTEXT)).toEqual([]);
  });

  it('requires the recipient (MOC E01-10, 719)', () => {
    const req = interstateRequest() as Partial<NfeRequest>;
    delete req.destinatario;
    expect(messageOf(req as NfeRequest, 'destinatario')).toMatch(/is required: an NF-e identifies its recipient/);
  });

  it('checks each CFOP against the destination derived from the states (731-733)', () => {
    const req = interstateRequest();
    req.items[1]!.cfop = '5102';
    expect(fields(req)).toEqual(['items[1].cfop']);
    expect(messageOf(req, 'items[1].cfop')).toMatch(/5102 is a CFOP of an operation internal .* this operation interstate .* starting with 6/);
    const internal = internalRequest();
    internal.items[0]!.cfop = '6102';
    expect(fields(internal)).toEqual(['items[0].cfop']);
  });

  it('refuses inbound and outbound CFOPs in one note (518/519)', () => {
    const req = interstateRequest();
    req.items[1]!.cfop = '2202';
    expect(messageOf(req, 'items[1].cfop')).toMatch(/inbound CFOP but items\[0\] is outbound/);
  });

  it('requires referenced_documents for devolucao, exactly one own note for complementar', () => {
    const req = internalRequest();
    req.finalidade = 'devolucao';
    req.payment = { method: 'sem_pagamento', amount: 0 };
    expect(messageOf(req, 'referenced_documents')).toMatch(/is required for a devolucao NF-e/);
    req.referenced_documents = [BODY + ((accessKeyCheckDigit(BODY) + 1) % 10)];
    expect(fields(req)).toEqual(['referenced_documents[0]']); // wrong check digit
    req.referenced_documents = [OTHER_KEY];
    expect(fields(req)).toEqual([]);
    req.finalidade = 'complementar';
    req.payment = { method: 'boleto', amount: 1 };
    expect(fields(req)).toContain('referenced_documents[0]'); // not this issuer's note (269)
  });

  it('a devolucao or ajuste is paid with sem_pagamento (871)', () => {
    const req = internalRequest();
    req.finalidade = 'ajuste';
    req.referenced_documents = [OTHER_KEY];
    expect(messageOf(req, 'payment')).toMatch(/sem_pagamento alone for a ajuste/);
  });

  it('installments add up to the invoice net value (851), at most 120, dated in order', () => {
    const req = interstateRequest();
    req.cobranca = { fatura: { valor_original: 3444.87, desconto: 44.87 }, duplicatas: [{ vencimento: '2026-08-15', valor: 1700 }, { vencimento: '2026-09-15', valor: 1600 }] };
    expect(messageOf(req, 'cobranca.duplicatas')).toBe('add up to R$ 3300.00 but the invoice net value is R$ 3400.00 (MOC Y10-10, 851)');
    req.cobranca.duplicatas![1]!.valor = 1700;
    expect(fields(req)).toEqual([]);
    req.cobranca.duplicatas![1]!.vencimento = '2026-08-01';
    expect(messageOf(req, 'cobranca.duplicatas[1].vencimento')).toMatch(/previous installment/);
    req.cobranca = { duplicatas: Array.from({ length: 121 }, () => ({ vencimento: '2026-08-15', valor: 1 })) };
    expect(messageOf(req, 'cobranca.duplicatas')).toMatch(/at most 120 installments/);
    req.cobranca = { duplicatas: [{ vencimento: '2026-07-01', valor: 3444.87 }] };
    expect(messageOf(req, 'cobranca.duplicatas[0].vencimento')).toMatch(/emission date 2026-07-15/);
  });

  it('at most 10 aut_xml, each a valid CNPJ/CPF', () => {
    const req = interstateRequest();
    req.aut_xml = Array.from({ length: 11 }, () => '10422724000187');
    expect(messageOf(req, 'aut_xml')).toMatch(/at most 10 entries/);
    req.aut_xml = ['10422724000188'];
    expect(fields(req)).toEqual(['aut_xml[0]']);
  });

  it('DIFAL is required for an interstate sale to a non-taxpayer final consumer, forbidden otherwise (694/695)', () => {
    const req = interstateRequest();
    delete req.items[0]!.difal;
    expect(messageOf(req, 'items[0].difal')).toMatch(/is required: an interstate sale to a non-taxpayer/);
    // CST 40 (exempt) needs none: NA01-20 exception 10.
    expect(fields(req)).toEqual(['items[0].difal']);
    const internal = internalRequest();
    internal.items[0]!.difal = { destination_rate: 18 };
    expect(messageOf(internal, 'items[0].difal')).toMatch(/only used in an interstate operation/);
    // A Simples issuer (CRT 1) is excepted (NA01-20 exception 12).
    const simples = interstateRequest();
    delete simples.items[0]!.difal;
    simples.items = simples.items.map(({ cst_icms: _c, pICMS: _p, ...it }) => ({ ...it, csosn: '102' }));
    expect(validateNfeRequest(simples, { ...NFE_CONTEXT, issuer: { ...NUMERIC_ISSUER, crt: 1 } })).toEqual([]);
  });

  it('the destination rate must reach the interstate rate (4% imported, 7%/12% by states)', () => {
    const req = interstateRequest();
    req.items[0]!.difal = { destination_rate: 10 };
    expect(messageOf(req, 'items[0].difal.destination_rate')).toBe('must be at least the interstate rate of this item, 12.00%');
    req.items[0]!.origin = 1;
    expect(fields(req)).toEqual([]);
  });

  it('a recipient abroad needs id_estrangeiro and is a non-taxpayer; CFOP 7xxx', () => {
    const req = interstateRequest();
    req.destinatario = { name: 'Buyer Inc', indicador_ie: 'contribuinte', address: { street: 'Main St', number: '9', district: 'Downtown', city: 'Miami', country_code: '2496', country: 'Estados Unidos' } };
    req.items = req.items.map(({ difal: _d, ...it }) => ({ ...it, cfop: '7102' }));
    expect(fields(req)).toEqual(['destinatario.id_estrangeiro', 'destinatario.indicador_ie', 'export']);
    req.destinatario.id_estrangeiro = 'P1234567';
    req.destinatario.indicador_ie = 'nao_contribuinte';
    // MOC ZA01-10 (355): an outbound note abroad says where the goods leave the country.
    expect(fields(req)).toEqual(['export']);
    req.export = { shipment_uf: 'SP', shipment_place: 'AEROPORTO DE GUARULHOS' };
    expect(fields(req)).toEqual([]);
  });

  it('IE goes with a contribuinte only (728/791); a non-taxpayer buying outbound is a final consumer (696)', () => {
    const req = internalRequest();
    delete req.destinatario.ie;
    expect(fields(req)).toEqual(['destinatario.ie']);
    const nc = interstateRequest();
    nc.consumidor_final = false;
    expect(fields(nc)).toContain('consumidor_final');
  });

  it('IPI: CST decides IPITrib (rate required) or IPINT (no rate)', () => {
    const req = interstateRequest();
    req.items[0]!.ipi = { cst: '00' };
    expect(fields(req)).toEqual(['items[0].ipi.rate']);
    req.items[0]!.ipi = { cst: '53', rate: 5 };
    expect(fields(req)).toContain('items[0].ipi.rate');
    req.items[0]!.ipi = { cst: '07' };
    expect(fields(req)).toContain('items[0].ipi.cst');
  });

  it('a marketplace sale (intermediador) is not presential and names a valid CNPJ (435/440)', () => {
    const req = interstateRequest();
    req.intermediador = { cnpj: '11222333000181', id_cadastro: 'loja-77' };
    const p = prepareNfe(req, NFE_CONTEXT);
    expect(p.ok && [p.nfe.ide.indIntermed, p.nfe.parts.infIntermed]).toEqual([1, { CNPJ: '11222333000181', idCadIntTran: 'loja-77' }]);
    req.presenca = 'presencial';
    req.intermediador.cnpj = '11222333000182';
    expect(fields(req)).toEqual(['intermediador', 'intermediador.cnpj']);
  });

  it('ICMS relief: codes and reasons of its group, subtracted from vNF (W16-10)', () => {
    const req = internalRequest();
    req.items[1]!.icms_relief = { amount: 18.18, reason: 9 };
    req.payment = { method: 'boleto', amount: 3426.69 };
    const p = prepareNfe(req, NFE_CONTEXT);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const plain = prepareNfe(internalRequest(), NFE_CONTEXT);
    expect(plain.ok && plain.nfe.parts.total.vNF - p.nfe.parts.total.vNF).toBe(1818);
    expect(p.nfe.parts.total.vICMSDeson).toBe(1818);
    req.items[1]!.icms_relief = { amount: 18.18, reason: 12 };
    expect(messageOf(req, 'items[1].icms_relief.reason')).toBe('must be one of 1, 3, 4, 5, 6, 8, 9, 10, 11, 16, 90 for CST 40 (motDesICMS)');
    req.items[0]!.icms_relief = { amount: 1, reason: 9 };
    expect(messageOf(req, 'items[0].icms_relief')).toBe('is only used with CST 20, 30, 40, 41, 50, 70 or 90, not 00');
    req.items[1]!.icms_relief = { amount: 200, reason: 9 };
    expect(messageOf(req, 'items[1].icms_relief.amount')).toBe('is larger than the item value after its discount');
  });

  it('prepareNfe computes vNF by the MOC W16-10 rule and the DIFAL totals', () => {
    const p = prepareNfe(interstateRequest(), NFE_CONTEXT);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const t = p.nfe.parts.total;
    expect(t.vNF).toBe(t.vProd - t.vDesc + t.vST + t.vFCPST + t.vFrete + t.vSeg + t.vOutro + t.vIPI);
    // 3000 + 38.70 freight share = 3038.70 IPI base, 10% = 303.87; DIFAL base 3342.57 x (20% - 12%) = 267.41, FCP 2% = 66.85.
    expect([t.vIPI, t.vICMSUFDest, t.vFCPUFDest, t.vICMSUFRemet, t.vNF]).toEqual([30387, 26741, 6685, 0, 344487]);
    expect(p.nfe.ide).toMatchObject({ idDest: 2, tpNF: 1, indFinal: 1, indPres: 2, indIntermed: 0, finNFe: 1 });
  });
});
