import { checkNumber, fail, OPTIONAL_MONEY, PERCENT, type Errors } from '../../../fiscal/layout/field-rules.js';
import { ufCode } from '../../../fiscal/layout/ibge.js';
import { formatCents, toCents } from '../../../kernel/decimal.js';
import { icmsCode } from '../../goods/domain/icms-codes.js';
import { checkRetained } from '../../goods/domain/validate-item.js';
import type { NfeItem } from './nfe-request.js';

// The two interstate ICMS groups only an NF-e has (an NFC-e rejects them: MOC N12-50, 741; N12-60,
// 740): ICMSPart (icms_partilha) and ICMSST (st_repasse). Their CSTs are the enumerations of
// leiauteNFe_v4.00.xsd that PL_009_V4 and PL_010_V1.30 share.

const AMOUNT = { ...OPTIONAL_MONEY, required: true } as const;

/** The operation as the parties make it; undefined while the recipient is invalid. */
export interface InterstateFacts {
  idDest?: 1 | 2 | 3;
  indFinal?: 0 | 1;
  finNFe?: 1 | 2 | 3 | 4 | 5 | 6;
}

/** ICMSPart: CST 10/90 (PL_009; PL_010 adds 20), own ICMS and the ST block mandatory, pBCOp and UFST. */
function checkPartilha(errors: Errors, at: string, item: NfeItem, code: string, f: InterstateFacts): void {
  const p = item.icms_partilha!;
  const where = `${at}.icms_partilha`;
  if (code !== '10' && code !== '90') fail(errors, where, `is only used with CST 10 or 90 (ICMSPart), not ${code}`);
  // MOC 245.01 (N10a): an interstate operation to a final consumer.
  if (f.idDest !== undefined && f.idDest !== 2) fail(errors, where, 'is only used in an interstate operation (recipient in another state, MOC N10a); remove it or correct the recipient\'s address');
  else if (f.indFinal === 0) fail(errors, where, 'is only used in a sale to a final consumer (MOC N10a); set consumidor_final to true or remove it');
  if (code === '90') {
    if (item.pICMS === undefined) fail(errors, `${at}.pICMS`, 'is required with icms_partilha: ICMSPart carries the ICMS of the own operation (vBC, pICMS, vICMS)');
    if (item.st === undefined) fail(errors, `${at}.st`, 'is required with icms_partilha: ICMSPart carries the ICMS-ST of the operation (modBCST, vBCST, pICMSST, vICMSST); give at least st.rate');
  }
  if (item.fcp_rate !== undefined) fail(errors, `${at}.fcp_rate`, 'is not used with icms_partilha: ICMSPart has no FCP of the own operation (only FCP-ST, st.fcp_rate); remove it');
  if (item.icms_relief !== undefined) fail(errors, `${at}.icms_relief`, 'is not used with icms_partilha: ICMSPart has no relief in PL_009; remove it');
  // MOC NA01 (245a.01): the vehicle sales of Convênio ICMS 51/00 have their own group (ICMSPart), not ICMSUFDest.
  if (item.difal !== undefined) fail(errors, `${at}.difal`, 'is not used with icms_partilha: an item with the ICMS split (ICMSPart) carries no ICMSUFDest (MOC NA01); remove it');
  checkNumber(errors, `${where}.operation_base_share`, p.operation_base_share, PERCENT);
  if (typeof p.uf_st !== 'string' || (p.uf_st !== 'EX' && !ufCode(p.uf_st))) fail(errors, `${where}.uf_st`, 'must be a two-letter Brazilian state (e.g. MG), or EX (UFST)');
}

/** ICMSST: CST 41/60 with the ST retained earlier (vBCSTRet, vICMSSTRet mandatory) and the destination's base and value. */
function checkRepasse(errors: Errors, at: string, item: NfeItem, code: string, f: InterstateFacts): void {
  const r = item.st_repasse!;
  const where = `${at}.st_repasse`;
  if (code !== '41' && code !== '60') fail(errors, where, `is only used with CST 41 or 60 (ICMSST), not ${code}`);
  // MOC 245.17 (N10b): interstate operations with goods whose ST was retained in the sender's state.
  if (f.idDest !== undefined && f.idDest !== 2) fail(errors, where, 'is only used in an interstate operation (recipient in another state, MOC N10b); remove it or correct the recipient\'s address');
  if (item.st_retained === undefined) fail(errors, `${at}.st_retained`, 'is required with st_repasse: ICMSST carries the ICMS-ST retained earlier (vBCSTRet, pST, vICMSSTRet); give base, rate and amount');
  else if (code === '41') checkRetained(errors, at, item.st_retained);
  if (item.icms_relief !== undefined) fail(errors, `${at}.icms_relief`, 'is not used with st_repasse: ICMSST has no relief; remove it');
  checkNumber(errors, `${where}.destination_base`, r.destination_base, AMOUNT);
  checkNumber(errors, `${where}.destination_amount`, r.destination_amount, AMOUNT);
  const fcp = r.retained_fcp;
  if (fcp) {
    checkNumber(errors, `${where}.retained_fcp.base`, fcp.base, AMOUNT);
    const rateOk = checkNumber(errors, `${where}.retained_fcp.rate`, fcp.rate, PERCENT);
    // MOC N27b-10 (881): the rate is informed only for goods subject to the fund, never as zero.
    if (rateOk && fcp.rate === 0) fail(errors, `${where}.retained_fcp.rate`, 'must be greater than 0; leave retained_fcp out when the goods are not subject to the poverty fund on ST (MOC N27b-10, 881)', 'N27b-10');
    const amountOk = checkNumber(errors, `${where}.retained_fcp.amount`, fcp.amount, AMOUNT);
    // MOC N27d-10 (860): with CST 60 in a normal note, vFCPSTRet is vBCFCPSTRet * pFCPSTRet (one cent either way).
    if (rateOk && amountOk && code === '60' && f.finNFe === 1 && typeof fcp.base === 'number') {
      const expected = Math.round((toCents(fcp.base) * fcp.rate) / 100);
      if (Math.abs(toCents(fcp.amount) - expected) > 1) {
        fail(errors, `${where}.retained_fcp.amount`, `must be base * rate = R$ ${formatCents(expected)} (one cent either way) in a normal note with CST 60 (MOC N27d-10, 860)`, 'N27d-10');
      }
    }
  }
}

/** Errors of icms_partilha and st_repasse (regime-normal CSTs only: a CSOSN is never 10/41/60/90). */
export function checkInterstateIcms(errors: Errors, at: string, item: NfeItem, f: InterstateFacts): void {
  const code = icmsCode(item) ?? '';
  if (item.icms_partilha !== undefined) checkPartilha(errors, at, item, code, f);
  if (item.st_repasse !== undefined) checkRepasse(errors, at, item, code, f);
}

/** CST 41 keeps st_retained only for ICMSST: the shared item checks see it without (they allow it on 60/500 alone). */
export function withoutRepasseRetained(item: NfeItem): NfeItem {
  if (item.st_repasse === undefined || icmsCode(item) !== '41' || item.st_retained === undefined) return item;
  const { st_retained: _retained, ...rest } = item;
  return rest;
}
