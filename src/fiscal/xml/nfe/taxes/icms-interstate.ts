import { leaf } from '../../xml-text.js';
import { money, rate } from '../format.js';
import type { IcmsModel } from '../model.js';
import { retainedBlock, stBlock } from './icms-blocks.js';

// The two interstate ICMS groups of model 55 (an NFC-e rejects them: MOC N12-50 741, N12-60 740),
// fields in the order of leiauteNFe_v4.00.xsd (PL_009_V4 and PL_010_V1.30).

/**
 * ICMSPart (MOC N10a): orig, CST (10 or 90; PL_010 also accepts 20, PL_009 does not), modBC, vBC,
 * [pRedBC], pICMS, vICMS, the ST block (mandatory, with the optional FCP-ST trio), pBCOp, UFST.
 * The optional relief of PL_010 is not written (PL_009 lacks it).
 */
export function icmsPartXml(m: IcmsModel): string {
  const { own, st, partilha } = m;
  if (!own || !st || !partilha) throw new Error(`ICMSPart (CST ${m.code}) needs own ICMS, ST and the split (validateNfe should have caught this)`);
  return (
    leaf('orig', m.orig) +
    leaf('CST', m.code) +
    leaf('modBC', own.modBC) +
    money('vBC', own.vBC) +
    (own.pRedBC ? rate('pRedBC', own.pRedBC) : '') +
    rate('pICMS', own.pICMS) +
    money('vICMS', own.vICMS) +
    stBlock(st) +
    rate('pBCOp', partilha.pBCOp) +
    leaf('UFST', partilha.UFST)
  );
}

/**
 * ICMSST (MOC N10b): orig, CST (41 or 60), vBCSTRet, [pST], [vICMSSubstituto], vICMSSTRet,
 * [vBCFCPSTRet, pFCPSTRet, vFCPSTRet], vBCSTDest, vICMSSTDest (the effective-ICMS block is not written).
 */
export function icmsStXml(m: IcmsModel): string {
  const { retained, repasse } = m;
  if (!retained || !repasse) throw new Error(`ICMSST (CST ${m.code}) needs the retained ST and the repasse (validateNfe should have caught this)`);
  const f = repasse.fcpRet;
  return (
    leaf('orig', m.orig) +
    leaf('CST', m.code) +
    retainedBlock(retained) +
    (f ? money('vBCFCPSTRet', f.vBCFCPSTRet) + rate('pFCPSTRet', f.pFCPSTRet) + money('vFCPSTRet', f.vFCPSTRet) : '') +
    money('vBCSTDest', repasse.vBCSTDest) +
    money('vICMSSTDest', repasse.vICMSSTDest)
  );
}
