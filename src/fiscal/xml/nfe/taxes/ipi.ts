import { el, leaf } from '../../xml-text.js';
import { money, rate } from '../format.js';
import type { IcmsUfDestModel, IpiModel } from '../model.js';

// Model 55 item groups: IPI (TIpi) and ICMSUFDest (DIFAL, NT 2015.003), fields in XSD order.

/** IPITrib CSTs (XSD enumeration); the others (01-05, 51-55) are IPINT. */
export const IPI_TRIB_CSTS: readonly string[] = ['00', '49', '50', '99'];
export const IPI_NT_CSTS: readonly string[] = ['01', '02', '03', '04', '05', '51', '52', '53', '54', '55'];

export function ipiXml(m: IpiModel): string {
  const body = m.trib
    ? el('IPITrib', leaf('CST', m.CST) + money('vBC', m.trib.vBC) + rate('pIPI', m.trib.pIPI) + money('vIPI', m.trib.vIPI))
    : el('IPINT', leaf('CST', m.CST));
  return el('IPI', leaf('cEnq', m.cEnq) + body);
}

export function icmsUfDestXml(m: IcmsUfDestModel): string {
  const f = m.fcp;
  return el(
    'ICMSUFDest',
    money('vBCUFDest', m.vBCUFDest) +
      (f ? money('vBCFCPUFDest', f.vBCFCPUFDest) + rate('pFCPUFDest', f.pFCPUFDest) : '') +
      rate('pICMSUFDest', m.pICMSUFDest) +
      // pICMSInter is an enumeration of "4.00", "7.00", "12.00": always 2 decimals.
      leaf('pICMSInter', (m.pICMSInter / 10_000).toFixed(2)) +
      rate('pICMSInterPart', m.pICMSInterPart) +
      (f ? money('vFCPUFDest', f.vFCPUFDest) : '') +
      money('vICMSUFDest', m.vICMSUFDest) +
      money('vICMSUFRemet', m.vICMSUFRemet),
  );
}
