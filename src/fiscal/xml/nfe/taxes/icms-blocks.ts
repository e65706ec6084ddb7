import { leaf } from '../../xml-text.js';
import { money, optMoney, rate } from '../format.js';
import type { OwnIcmsModel, StModel, StRetainedModel } from '../model.js';

// Field blocks shared by several ICMS groups, each in the XSD sequence order.

/** modBC, [pRedBC], vBC, pICMS, vICMS (ICMS00/10/20/70 order: pRedBC before vBC). */
export function ownIcms(own: OwnIcmsModel, withReduction: boolean): string {
  return (
    leaf('modBC', own.modBC) +
    (withReduction ? rate('pRedBC', own.pRedBC ?? 0) : '') +
    money('vBC', own.vBC) +
    rate('pICMS', own.pICMS) +
    money('vICMS', own.vICMS)
  );
}

/** vBCFCP, pFCP, vFCP (ICMS10/20/70/90). */
export function fcpWithBase(own: OwnIcmsModel): string {
  return own.fcp ? money('vBCFCP', own.fcp.vBCFCP) + rate('pFCP', own.fcp.pFCP) + money('vFCP', own.fcp.vFCP) : '';
}

/** modBCST, [pMVAST], [pRedBCST], vBCST, pICMSST, vICMSST, [vBCFCPST, pFCPST, vFCPST]. */
export function stBlock(st: StModel): string {
  return (
    leaf('modBCST', st.modBCST) +
    (st.pMVAST ? rate('pMVAST', st.pMVAST) : '') +
    (st.pRedBCST ? rate('pRedBCST', st.pRedBCST) : '') +
    money('vBCST', st.vBCST) +
    rate('pICMSST', st.pICMSST) +
    money('vICMSST', st.vICMSST) +
    (st.fcp ? money('vBCFCPST', st.fcp.vBCFCPST) + rate('pFCPST', st.fcp.pFCPST) + money('vFCPST', st.fcp.vFCPST) : '')
  );
}

/** vBCSTRet, pST, [vICMSSubstituto], vICMSSTRet (ICMS60, ICMSSN500). */
export function retainedBlock(r: StRetainedModel | undefined): string {
  if (!r) return '';
  return money('vBCSTRet', r.vBCSTRet) + rate('pST', r.pST) + optMoney('vICMSSubstituto', r.vICMSSubstituto) + money('vICMSSTRet', r.vICMSSTRet);
}
