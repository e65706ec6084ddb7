import { describe, expect, it } from 'vitest';
import { VEHICLE } from '../../../../test/support/vehicle-fixture.js';
import { NFE_CONTEXT, interstateRequest } from '../../../../test/support/nfe-fixtures.js';
import type { NfeItem, NfeRequest } from './nfe-request.js';
import { validateNfeRequest } from './validate-nfe.js';

// icms_partilha (ICMSPart, MOC N10a) and st_repasse (ICMSST, MOC N10b): each error names the field
// and says what to fix.

const errorsOf = (req: NfeRequest) => validateNfeRequest(req, NFE_CONTEXT).filter((e) => e.field !== 'payment');
const messageOf = (req: NfeRequest, field: string) => errorsOf(req).find((e) => e.field === field)?.message ?? '';

/** SP -> RJ sale to a non-taxpayer final consumer with one item. */
function withItem(item: Partial<NfeItem>, edit?: (r: NfeRequest) => void): NfeRequest {
  const req = interstateRequest();
  const { difal: _d, ipi: _i, ...base } = req.items[0]!;
  req.items = [{ ...base, ...item } as NfeItem];
  edit?.(req);
  return req;
}
const PARTILHA = { cst_icms: '10', pICMS: 12, st: { rate: 12 }, icms_partilha: { operation_base_share: 45.08, uf_st: 'RJ' } };
const REPASSE = { cst_icms: '60', cest: '1700100', st_retained: { base: 100, rate: 18, amount: 6 }, st_repasse: { destination_base: 110, destination_amount: 7.5 } };
/** A taxpayer recipient in RJ buying for resale (no DIFAL). */
const toBusiness = (r: NfeRequest) => {
  const { cpf: _cpf, ...dest } = r.destinatario;
  r.destinatario = { ...dest, cnpj: '11222333000181', indicador_ie: 'contribuinte', ie: '99999993' };
  r.consumidor_final = false;
  r.presenca = 'nao_se_aplica';
};
/** An IE-exempt final consumer: ICMSPart without a new vehicle (veicProd) is refused to a non-taxpayer (MOC N12-70, 508). */
const toExempt = (r: NfeRequest) => {
  r.destinatario = { ...r.destinatario, indicador_ie: 'isento' };
  r.consumidor_final = true;
};
const toSp = (r: NfeRequest) => {
  r.destinatario.address = { ...r.destinatario.address, uf: 'SP', city_code: '3550308', city: 'Sao Paulo' };
  r.items.forEach((i) => (i.cfop = '5102'));
};

describe('icms_partilha (ICMSPart)', () => {
  it('accepts CST 10 and 90 (with pICMS and st) in an interstate sale to a final consumer, without DIFAL (NA01-20 exception 1)', () => {
    expect(errorsOf(withItem(PARTILHA, toExempt))).toEqual([]);
    expect(errorsOf(withItem({ ...PARTILHA, cst_icms: '90', icms_base_reduction: 10 }, toExempt))).toEqual([]);
    // To a non-taxpayer only with a new vehicle (items[].vehicle, veicProd): MOC N12-70 (508), exception 3.
    expect(errorsOf(withItem(PARTILHA))).toEqual([expect.objectContaining({ field: 'items[0].cst_icms', rule: 'N12-70' })]);
    expect(errorsOf(withItem({ ...PARTILHA, vehicle: VEHICLE }))).toEqual([]);
  });

  it('refuses other CSTs and CST 90 without pICMS or st', () => {
    expect(messageOf(withItem({ ...PARTILHA, cst_icms: '20', icms_base_reduction: 10 }), 'items[0].icms_partilha')).toBe('is only used with CST 10 or 90 (ICMSPart), not 20');
    const bare = withItem({ cst_icms: '90', icms_partilha: PARTILHA.icms_partilha }, (r) => delete r.items[0]!.pICMS);
    expect(messageOf(bare, 'items[0].pICMS')).toMatch(/is required with icms_partilha: ICMSPart carries the ICMS of the own operation/);
    expect(messageOf(bare, 'items[0].st')).toMatch(/is required with icms_partilha: ICMSPart carries the ICMS-ST/);
  });

  it('only in an interstate operation with a final consumer', () => {
    expect(messageOf(withItem(PARTILHA, toSp), 'items[0].icms_partilha')).toMatch(/only used in an interstate operation/);
    expect(messageOf(withItem(PARTILHA, toBusiness), 'items[0].icms_partilha')).toMatch(/only used in a sale to a final consumer .*consumidor_final/);
  });

  it('refuses DIFAL, own FCP and relief beside it, and checks pBCOp and UFST', () => {
    const req = withItem({ ...PARTILHA, cst_icms: '90', fcp_rate: 2, icms_relief: { amount: 1, reason: 9 }, difal: { destination_rate: 20 }, icms_partilha: { operation_base_share: 101, uf_st: 'XX' } });
    expect(messageOf(req, 'items[0].difal')).toMatch(/carries no ICMSUFDest \(MOC NA01\)/);
    expect(messageOf(req, 'items[0].fcp_rate')).toMatch(/ICMSPart has no FCP of the own operation/);
    expect(messageOf(req, 'items[0].icms_relief')).toMatch(/ICMSPart has no relief in PL_009/);
    expect(messageOf(req, 'items[0].icms_partilha.operation_base_share')).not.toBe('');
    expect(messageOf(req, 'items[0].icms_partilha.uf_st')).toBe('must be a two-letter Brazilian state (e.g. MG), or EX (UFST)');
  });
});

describe('st_repasse (ICMSST)', () => {
  it('accepts CST 60 and 41 with st_retained in an interstate operation', () => {
    expect(errorsOf(withItem(REPASSE, toBusiness))).toEqual([]);
    expect(errorsOf(withItem({ ...REPASSE, cst_icms: '41', st_repasse: { ...REPASSE.st_repasse, retained_fcp: { base: 100, rate: 2, amount: 2 } } }))).toEqual([]);
  });

  it('refuses other CSTs, a missing st_retained and an internal operation', () => {
    expect(messageOf(withItem({ ...REPASSE, cst_icms: '40', st_retained: undefined }), 'items[0].st_repasse')).toBe('is only used with CST 41 or 60 (ICMSST), not 40');
    expect(messageOf(withItem({ cst_icms: '41', st_repasse: REPASSE.st_repasse }), 'items[0].st_retained')).toMatch(/is required with st_repasse/);
    expect(messageOf(withItem(REPASSE, toSp), 'items[0].st_repasse')).toMatch(/only used in an interstate operation/);
  });

  it('keeps st_retained on CST 41 for ICMSST only, checks its values and refuses relief', () => {
    expect(messageOf(withItem({ cst_icms: '41', st_retained: REPASSE.st_retained }), 'items[0].st_retained')).toBe('is only used with CST 60 or CSOSN 500, not 41');
    const req = withItem({ cst_icms: '41', st_retained: { base: -1, rate: 18, amount: 6 }, icms_relief: { amount: 1, reason: 9 }, st_repasse: { destination_base: 1.234, destination_amount: 7.5, retained_fcp: { base: 1, rate: 2, amount: -2 } } });
    expect(messageOf(req, 'items[0].st_retained.base')).not.toBe('');
    expect(messageOf(req, 'items[0].icms_relief')).toMatch(/ICMSST has no relief/);
    expect(messageOf(req, 'items[0].st_repasse.destination_base')).not.toBe('');
    expect(messageOf(req, 'items[0].st_repasse.retained_fcp.amount')).not.toBe('');
  });
});
