import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { hasOwnIcms, icmsCode, icmsCodeField } from '../../goods/domain/icms-codes.js';
import type { NfeItem } from './nfe-request.js';
import type { DifalFacts } from './operation.js';

// Model 55 rules on an item's ICMS that depend on the operation (MOC 7.0 Anexo I, group N): the
// CST/CSOSN a recipient without IE may receive (N12-70 508, N12-80 529, N12a-70 600), the
// interstate rate (N16-20 693), the FCP of an interstate sale to a non-taxpayer (N17c-20 876) and
// the CEST of goods under ST (N23-10 806). Where an exception needs the CFOP table (returns,
// shipments, annulments: indRetor, indRemes, indAnula), the rule is applied to the plain sales only,
// as the simulator does (authority-sim/icms-rules.ts).

/** Plain sales (x101-x106, x401-x405): neither return, shipment nor annulment in the CFOP table. */
export const PLAIN_SALE = /^[567](10[1-6]|40[1-5])$/;
/** MOC N12-70's list, with 61 since NT 2023.001. */
const NON_TAXPAYER_CSTS = new Set(['00', '20', '40', '41', '60', '61']);
const NON_TAXPAYER_CSOSNS = new Set(['102', '103', '300', '400', '500']);
const ST_CODES = new Set(['10', '30', '60', '70', '201', '202', '203', '500']);

/** MOC N12-70 (508): a CST to a non-taxpayer (indIEDest 9) outside 00, 20, 40, 41, 60, 61, after the exceptions. */
export function nonTaxpayerCstRefused(f: DifalFacts, cst: string, cfop: string): boolean {
  if (f.indIEDest !== 9 || f.tpNF === 0 || NON_TAXPAYER_CSTS.has(cst) || cst.length !== 2) return false;
  if (cst === '50') return f.finNFe !== 4 && PLAIN_SALE.test(cfop);
  if (cst === '51') return f.finNFe !== 4 && f.idDest !== 1 && !['5123', '5922', '6123', '6922', '5906', '5907'].includes(cfop);
  // Exc. 8 (the state's choice, taken): CST 10 and, since NT 2023.001 v1.40, CST 02 in an internal operation.
  if (cst === '10' || cst === '02') return f.idDest !== 1;
  return true;
}

/** MOC N12-80 (529): CST 50/51 to a recipient exempt from IE (indIEDest 2), after the exceptions. */
export function exemptRecipientCstRefused(f: DifalFacts, cst: string, cfop: string, destCnpj: boolean): boolean {
  if (f.indIEDest !== 2 || (cst !== '50' && cst !== '51')) return false;
  if (cst === '50') return !/^(1915|1916|2915|2916|5915|5916|6915|6916|1912|1913|5912|5913)$/.test(cfop);
  return !(f.idDest === 1 && destCnpj);
}

/** MOC N12a-70 (600): a CSOSN to a non-taxpayer outside 102, 103, 300, 400, 500. */
export function nonTaxpayerCsosnRefused(f: DifalFacts, csosn: string, cfop: string): boolean {
  return f.indIEDest === 9 && f.tpNF === 1 && csosn.length === 3 && !NON_TAXPAYER_CSOSNS.has(csosn) && !['5915', '5916', '6915', '6916', '5912', '5913'].includes(cfop);
}

/** MOC N16-20 (693): the ceiling of pICMS (scale 4) in a normal interstate sale of national goods, or undefined. */
export function interstateCeiling(f: DifalFacts, item: NfeItem, nationalRate: number | undefined): number | undefined {
  if (f.idDest !== 2 || f.tpNF !== 1 || f.finNFe !== 1 || [1, 2, 3, 8].includes(item.origin ?? 0) || !PLAIN_SALE.test(item.cfop)) return undefined;
  return nationalRate;
}

/** MOC N23-10 (806): the item's code makes it goods under ST (90/900 with an ST block) and it has no CEST. */
export function cestMissing(item: NfeItem): boolean {
  const code = icmsCode(item) ?? '';
  if (item.cest !== undefined || item.icms_partilha !== undefined) return false;
  return ST_CODES.has(code) || ((code === '90' || code === '900') && item.st !== undefined);
}

export interface RecipientFacts {
  op: DifalFacts;
  destCnpj: boolean;
  /** pICMSInter of national goods (scale 4) in an interstate operation. */
  nationalRate?: number;
  /** An item of the note sells a new vehicle (veicProd): MOC N12-70 exception 3. */
  vehicleSale?: boolean;
  /** An item sells a new vehicle by direct billing or direct sale (tpOp 2 or 3): MOC N16-20 exception 2. */
  directVehicleSale?: boolean;
}

export function checkRecipientIcms(errors: Errors, at: string, item: NfeItem, r: RecipientFacts): void {
  const code = icmsCode(item);
  if (code === undefined || typeof item.cfop !== 'string') return;
  const f = r.op;
  const field = `${at}.${icmsCodeField(item)}`;
  // MOC N12-70 exception 3: not when at least one item sells a new vehicle (veicProd).
  if (r.vehicleSale !== true && nonTaxpayerCstRefused(f, code, item.cfop)) {
    fail(errors, field, `CST ${code} is not accepted in a sale to a non-taxpayer (nao_contribuinte): use 00, 20, 40, 41, 60 or 61 (MOC N12-70, 508)`, 'N12-70');
  } else if (exemptRecipientCstRefused(f, code, item.cfop, r.destCnpj)) {
    fail(errors, field, `CST ${code} (suspension/deferral) is not accepted for a recipient exempt from IE (isento) (MOC N12-80, 529)`, 'N12-80');
  } else if (nonTaxpayerCsosnRefused(f, code, item.cfop)) {
    fail(errors, field, `CSOSN ${code} is not accepted in a sale to a non-taxpayer (nao_contribuinte): use 102, 103, 300, 400 or 500 (MOC N12a-70, 600)`, 'N12a-70');
  }
  // pICMS is written in the groups with own ICMS, ICMS51 and ICMSPart (CSOSN 201-203 only deduct it).
  const written = hasOwnIcms(code, item) || code === '51' || item.icms_partilha !== undefined;
  // MOC N16-20 exception 2: not in a sale of new vehicles with an item of direct billing or direct sale (tpOp 2 or 3).
  const ceiling = r.directVehicleSale === true ? undefined : interstateCeiling(f, item, r.nationalRate);
  if (written && ceiling !== undefined && typeof item.pICMS === 'number' && Math.round(item.pICMS * 10_000) > ceiling) {
    fail(errors, `${at}.pICMS`, `must be at most ${(ceiling / 10_000).toFixed(2)}%: the interstate rate of national goods in this operation (MOC N16-20, 693)`, 'N16-20');
  }
  if (f.idDest === 2 && f.indFinal === 1 && f.indIEDest === 9 && item.fcp_rate !== undefined) {
    fail(errors, `${at}.fcp_rate`, 'is not used in an interstate sale to a non-taxpayer final consumer: the destination\'s FCP goes in difal.fcp_rate (vFCPUFDest, MOC N17c-20, 876)', 'N17c-20');
  }
  if (cestMissing(item)) fail(errors, `${at}.cest`, `is required: an item under ICMS-ST (${code.length === 2 ? 'CST' : 'CSOSN'} ${code}) carries its CEST (MOC N23-10, 806)`, 'N23-10');
}
