// One edit per NT 2025.002 reform rule the simulator enforces (authority-sim/enforced-reform.ts), each breaking
// that rule first, on one of three valid notes the gateway builds: `normal` (interstateRequest in reform mode,
// item 1: base 2,193.83 (UB16-10, docs/fiscal/tax-reform.md) at CST 000 / 000001, 2026 rates: IBS UF 0.10% = 2.19,
// CBS 0.90% = 19.74), `reduced` (item 1 at CST 200 / 200030, 60% reduction: pAliqEfet 0.04 and 0.36, IBS UF 0.88, CBS 7.90) and `simples`
// (a CRT 1 note dated 15/01/2027). Tables: test/support/reform-test-tables.ts. Values in the edits keep every
// earlier rule satisfied (hand arithmetic in the comments).

export type ReformBase = 'normal' | 'reduced' | 'simples';
export interface ReformBreaker {
  base: ReformBase;
  edit: (xml: string) => string;
}

/** The first item's IBSCBS group replaced. */
export const item1 = (xml: string, ibscbs: string) => xml.replace(/<IBSCBS>[\s\S]*?<\/IBSCBS>/, ibscbs);
const group = (cst: string, cls: string, body: string) => `<IBSCBS><CST>${cst}</CST><cClassTrib>${cls}</cClassTrib>${body}</IBSCBS>`;
const uf = (inner: string, p = '0.10', v = '2.19') => `<gIBSUF><pIBSUF>${p}</pIBSUF>${inner}<vIBSUF>${v}</vIBSUF></gIBSUF>`;
const mun = (inner: string, v = '0.00') => `<gIBSMun><pIBSMun>0.00</pIBSMun>${inner}<vIBSMun>${v}</vIBSMun></gIBSMun>`;
const cbs = (inner: string, v = '19.74', p = '0.90') => `<gCBS><pCBS>${p}</pCBS>${inner}<vCBS>${v}</vCBS></gCBS>`;
const g = (ufPart: string, munPart: string, vIBS: string, cbsPart: string, extra = '') => `<gIBSCBS><vBC>2193.83</vBC>${ufPart}${munPart}<vIBS>${vIBS}</vIBS>${cbsPart}${extra}</gIBSCBS>`;
const red = (pRed: string, efet: string) => `<gRed><pRedAliq>${pRed}</pRedAliq><pAliqEfet>${efet}</pAliqEfet></gRed>`;
const dif = (vDif: string) => `<gDif><pDif>100.00</pDif><vDif>${vDif}</vDif></gDif>`;
const regular = (cst: string, cls: string, vUF = '2.19', vMun = '0.00', vCBS = '19.74') =>
  `<gTribRegular><CSTReg>${cst}</CSTReg><cClassTribReg>${cls}</cClassTribReg><pAliqEfetRegIBSUF>0.10</pAliqEfetRegIBSUF><vTribRegIBSUF>${vUF}</vTribRegIBSUF>` +
  `<pAliqEfetRegIBSMun>0.00</pAliqEfetRegIBSMun><vTribRegIBSMun>${vMun}</vTribRegIBSMun><pAliqEfetRegCBS>0.90</pAliqEfetRegCBS><vTribRegCBS>${vCBS}</vTribRegCBS></gTribRegular>`;
const on = (cst: string, cls: string, body: string) => (xml: string) => item1(xml, group(cst, cls, body));
/** A field of IBSCBSTot set to 1.00 (path as in reform-rules.ts TOTALS). */
function tot(path: string): (xml: string) => string {
  return (xml) => {
    const start = xml.indexOf('<IBSCBSTot>');
    let at = start;
    for (const name of path.split('/')) at = xml.indexOf(`<${name}>`, at);
    const end = xml.indexOf('<', at + 1);
    return xml.slice(0, xml.indexOf('>', at) + 1) + '1.00' + xml.slice(end);
  };
}
/** ide/gCompraGov (B31) of a purchase by `ente` (tpEnteGov), pRedutor 0 (2026), tpOperGov `oper`. */
const gov = (ente: string, oper = '1') => (xml: string) => xml.replace('</ide>', `<gCompraGov><tpEnteGov>${ente}</tpEnteGov><pRedutor>0.00</pRedutor><tpOperGov>${oper}</tpOperGov></gCompraGov></ide>`);
/** Item 1 as a 2026 government purchase writes it: gRed 0 in each sphere, pAliqEfet = the rate (pRedutor 0). */
const govItem = (extra: string) => on('000', '000001', g(uf(red('0.00', '0.10')), mun(red('0.00', '0.00')), '2.19', cbs(red('0.00', '0.90')), extra));
const tribGov = (vUF: string) => `<gTribCompraGov><pAliqIBSUF>0.10</pAliqIBSUF><vTribIBSUF>${vUF}</vTribIBSUF><pAliqIBSMun>0.00</pAliqIBSMun><vTribIBSMun>0.00</vTribIBSMun><pAliqCBS>0.90</pAliqCBS><vTribCBS>19.74</vTribCBS></gTribCompraGov>`;
const transfer = (vIBS: string, vCBS: string) => on('800', '800001', `<gTransfCred><vIBS>${vIBS}</vIBS><vCBS>${vCBS}</vCBS></gTransfCred>`);
const debit = (type: string) => (xml: string) => xml.replace('<finNFe>1</finNFe>', `<finNFe>6</finNFe><tpNFDebito>${type}</tpNFDebito>`);
/** TCredPres of gIBSCredPres / gCBSCredPres; `condSus` writes vCredPresCondSus instead of vCredPres. */
const credTax = (name: string, v: string, condSus = false) => `<${name}><pCredPres>1.00</pCredPres><vCredPres${condSus ? 'CondSus' : ''}>${v}</vCredPres${condSus ? 'CondSus' : ''}></${name}>`;
/** Item 1 (vProd 3000.00, the base 2193.83 group of CST 000) with gCredPresOper of `code` after gIBSCBS. */
const credit = (cls: string, code: string, groups: string) => on('000', cls, g(uf(''), mun(''), '2.19', cbs('')) + `<gCredPresOper><vBCCredPres>3000.00</vBCCredPres><cCredPres>${code}</cCredPres>${groups}</gCredPresOper>`);
const ibs30 = credTax('gIBSCredPres', '30.00');
const cbs30 = credTax('gCBSCredPres', '30.00');
const r60 = red('60.00', '0.04');
const m60 = red('60.00', '0.00');
const c60 = red('60.00', '0.36');

export const REFORM_BREAKERS: Readonly<Record<string, ReformBreaker>> = {
  'UB12-10': { base: 'simples', edit: (xml) => item1(xml, '') },
  'UB13-10': { base: 'normal', edit: on('999', '000001', g(uf(''), mun(''), '2.19', cbs(''))) },
  'UB13-20': { base: 'normal', edit: on('410', '410004', g(uf(''), mun(''), '2.19', cbs(''))) },
  'UB13-30': { base: 'normal', edit: on('000', '000001', '') },
  'UB13-39': { base: 'normal', edit: on('410', '410004', '<gIBSCBSMono><vTotIBSMonoItem>0.00</vTotIBSMonoItem><vTotCBSMonoItem>0.00</vTotCBSMonoItem></gIBSCBSMono>') },
  'UB13-40': { base: 'normal', edit: on('620', '620001', '') },
  'UB13-44': { base: 'normal', edit: on('410', '410004', '<gTransfCred><vIBS>1.00</vIBS><vCBS>1.00</vCBS></gTransfCred>') },
  'UB13-45': { base: 'normal', edit: on('800', '800001', '') },
  'UB14-10': { base: 'normal', edit: on('000', '000999', g(uf(''), mun(''), '2.19', cbs(''))) },
  'UB14-20': { base: 'normal', edit: on('000', '200030', g(uf(''), mun(''), '2.19', cbs(''))) },
  'UB14-25': { base: 'normal', edit: on('410', '410999', '') },
  // 2193.83 x 0.05% = 1.10: the value follows the wrong rate, only the rate rule breaks.
  'UB18-10': { base: 'normal', edit: on('000', '000001', g(uf('', '0.05', '1.50'), mun(''), '1.50', cbs(''))) },
  'UB37-10': { base: 'normal', edit: (xml) => xml.replace('<pIBSMun>0.00</pIBSMun><vIBSMun>0.00', '<pIBSMun>0.05</pIBSMun><vIBSMun>1.10').replace('<vIBS>2.19</vIBS>', '<vIBS>3.29</vIBS>') },
  'UB56-10': { base: 'normal', edit: on('000', '000001', g(uf(''), mun(''), '2.19', cbs('', '17.55', '0.80'))) },
  // CST 000 forbids gDif; CST 510 requires it in each sphere. 2193.83 x 0.10% x 100% = 2.19 deferred.
  'UB22-10': { base: 'normal', edit: on('000', '000001', g(uf(dif('2.19'), '0.10', '0.00'), mun(''), '0.00', cbs(''))) },
  'UB22-20': { base: 'normal', edit: on('510', '510001', g(uf(''), mun(''), '2.19', cbs(''))) },
  'UB23-10': { base: 'normal', edit: on('510', '510001', g(uf(dif('2.00'), '0.10', '1.00'), mun(''), '1.00', cbs(''))) },
  'UB40-20': { base: 'normal', edit: on('000', '000001', g(uf(''), mun(dif('0.00')), '2.19', cbs(''))) },
  'UB40-10': { base: 'normal', edit: on('510', '510001', g(uf(dif('2.19'), '0.10', '0.00'), mun(''), '0.00', cbs(''))) },
  'UB42-10': { base: 'normal', edit: on('510', '510001', g(uf(dif('2.19'), '0.10', '0.00'), mun(dif('0.05')), '0.00', cbs(''))) },
  'UB59-20': { base: 'normal', edit: on('000', '000001', g(uf(''), mun(''), '2.19', cbs(dif('19.74'), '0.00'))) },
  'UB59-10': { base: 'normal', edit: on('510', '510001', g(uf(dif('2.19'), '0.10', '0.00'), mun(dif('0.00')), '0.00', cbs(''))) },
  'UB61-10': { base: 'normal', edit: on('510', '510001', g(uf(dif('2.19'), '0.10', '0.00'), mun(dif('0.00')), '0.00', cbs(dif('18.74'), '1.00'))) },
  // CST 000 forbids gRed; CST 200 / 200030 requires it, 60% (IBS and CBS), pAliqEfet 0.04 / 0.00 / 0.36.
  'UB26-10': { base: 'normal', edit: on('000', '000001', g(uf(r60, '0.10', '0.88'), mun(''), '0.88', cbs(''))) },
  'UB26-20': { base: 'normal', edit: on('200', '200030', g(uf(''), mun(''), '2.19', cbs(''))) },
  'UB45-10': { base: 'normal', edit: on('000', '000001', g(uf(''), mun(m60), '2.19', cbs(''))) },
  'UB45-20': { base: 'normal', edit: on('200', '200030', g(uf(r60, '0.10', '0.88'), mun(''), '0.88', cbs(''))) },
  'UB64-10': { base: 'normal', edit: on('000', '000001', g(uf(''), mun(''), '2.19', cbs(c60, '7.90'))) },
  'UB64-20': { base: 'normal', edit: on('200', '200030', g(uf(r60, '0.10', '0.88'), mun(m60), '0.88', cbs(''))) },
  'UB27-10': { base: 'reduced', edit: on('200', '200030', g(uf(red('50.00', '0.05'), '0.10', '1.10'), mun(m60), '1.10', cbs(c60, '7.90'))) },
  'UB46-10': { base: 'reduced', edit: on('200', '200030', g(uf(r60, '0.10', '0.88'), mun(red('50.00', '0.00')), '0.88', cbs(c60, '7.90'))) },
  'UB65-10': { base: 'reduced', edit: on('200', '200030', g(uf(r60, '0.10', '0.88'), mun(m60), '0.88', cbs(red('50.00', '0.45'), '9.87'))) },
  // 0.10 x (1 - 60/100) = 0.04, not 0.05; 0.00 x 0.40 = 0.00, not 0.01; 0.90 x 0.40 = 0.36, not 0.40.
  'UB28-10': { base: 'reduced', edit: on('200', '200030', g(uf(red('60.00', '0.05'), '0.10', '1.10'), mun(m60), '1.10', cbs(c60, '7.90'))) },
  'UB47-10': { base: 'reduced', edit: on('200', '200030', g(uf(r60, '0.10', '0.88'), mun(red('60.00', '0.01'), '0.22'), '1.10', cbs(c60, '7.90'))) },
  'UB66-10': { base: 'reduced', edit: on('200', '200030', g(uf(r60, '0.10', '0.88'), mun(m60), '0.88', cbs(red('60.00', '0.40'), '8.78'))) },
  // Values: 2193.83 x 0.10% = 2.19 (2.21 is off by more than 0.01), 0.00 municipal, 19.74 CBS.
  'UB35-10': { base: 'normal', edit: (xml) => xml.replace('<vIBSUF>2.19</vIBSUF>', '<vIBSUF>2.21</vIBSUF>') },
  'UB54-10': { base: 'normal', edit: (xml) => xml.replace('<vIBSMun>0.00</vIBSMun>', '<vIBSMun>0.05</vIBSMun>') },
  'UB54a-10': { base: 'normal', edit: (xml) => xml.replace('<vIBS>2.19</vIBS>', '<vIBS>2.20</vIBS>') },
  'UB67-10': { base: 'normal', edit: (xml) => xml.replace('<vCBS>19.74</vCBS>', '<vCBS>19.64</vCBS>') },
  // 000990 stands for a classification of regular taxation (rates 0 in the main group, gTribRegular required).
  'UB68-10': { base: 'normal', edit: on('000', '000990', g(uf('', '0.00', '0.00'), mun(''), '0.00', cbs('', '0.00', '0.00'))) },
  'UB68-11': { base: 'normal', edit: on('000', '000001', g(uf(''), mun(''), '2.19', cbs(''), '<gTribRegular><CSTReg>000</CSTReg></gTribRegular>')) },
  // gTribRegular of the 000990 item: the 2026 rates on 2193.83: IBS UF 0.10% = 2.19, Mun 0.00, CBS 0.90% = 19.74.
  'UB69-10': { base: 'normal', edit: on('000', '000990', g(uf('', '0.00', '0.00'), mun(''), '0.00', cbs('', '0.00', '0.00'), regular('999', '000001'))) },
  'UB70-10': { base: 'normal', edit: on('000', '000990', g(uf('', '0.00', '0.00'), mun(''), '0.00', cbs('', '0.00', '0.00'), regular('000', '000999'))) },
  'UB72-10': { base: 'normal', edit: on('000', '000990', g(uf('', '0.00', '0.00'), mun(''), '0.00', cbs('', '0.00', '0.00'), regular('000', '000001', '2.21'))) },
  'UB72b-10': { base: 'normal', edit: on('000', '000990', g(uf('', '0.00', '0.00'), mun(''), '0.00', cbs('', '0.00', '0.00'), regular('000', '000001', '2.19', '0.02'))) },
  'UB72d-10': { base: 'normal', edit: on('000', '000990', g(uf('', '0.00', '0.00'), mun(''), '0.00', cbs('', '0.00', '0.00'), regular('000', '000001', '2.19', '0.00', '19.76'))) },
  // Government purchase: an NFC-e (B31-10); a municipal purchase dated 2027 with pIBSUF 0.05 (B32-10: the state's
  // rate must be 0 from 2027); receipt of the payment (tpOperGov 2) without the supply note (B34-10); the item
  // without gTribCompraGov (UB82a-10), its vTrib adding up to 3.19 + 0 + 19.74 = 22.93 against 2.19 + 0 + 19.74 =
  // 21.93 (UB82a-20, tolerance 0.04), gTribCompraGov without gCompraGov (UB82a-30).
  'B31-10': { base: 'normal', edit: (xml) => gov('2')(xml).replace('<mod>55</mod>', '<mod>65</mod>') },
  'B32-10': { base: 'simples', edit: gov('4') },
  'B34-10': { base: 'normal', edit: gov('2', '2') },
  'UB82a-10': { base: 'normal', edit: (xml) => govItem('')(gov('2')(xml)) },
  'UB82a-20': { base: 'normal', edit: (xml) => govItem(tribGov('3.19'))(gov('2')(xml)) },
  'UB82a-30': { base: 'normal', edit: on('000', '000001', g(uf(''), mun(''), '2.19', cbs(''), tribGov('2.19'))) },
  // Credit transfer (CST 800): on a debit note of type 06 (UB106-31), both values zero (UB106-40).
  'UB106-31': { base: 'normal', edit: (xml) => transfer('1.00', '1.00')(debit('06')(xml)) },
  'UB106-40': { base: 'normal', edit: (xml) => transfer('0.00', '0.00')(debit('01')(xml)) },
  // Presumed credit: in an NFC-e (UB120-10); with 000001, whose ind_gCredPresOper is 0 (UB120-20); code 99 (UB122-10);
  // 05 credits the CBS only (UB123-10 with an IBS group), 01 both (UB123-20 without the IBS one), 07 the IBS only
  // (UB127-10), 05 without its CBS group (UB127-20); 04's credit above vProd 3000.00 (UB125-10, UB129-10); a credit
  // under a suspensive condition in 2026 (UB126-10: from 2033 and code 04 only; UB130-10: from 2027, code 04).
  'UB120-10': { base: 'normal', edit: (xml) => credit('000001', '05', cbs30)(xml).replace('<mod>55</mod>', '<mod>65</mod>') },
  'UB120-20': { base: 'normal', edit: credit('000001', '05', cbs30) },
  'UB122-10': { base: 'normal', edit: credit('000003', '99', cbs30) },
  'UB123-10': { base: 'normal', edit: credit('000003', '05', ibs30 + cbs30) },
  'UB123-20': { base: 'normal', edit: credit('000003', '01', cbs30) },
  'UB125-10': { base: 'normal', edit: credit('000003', '04', credTax('gIBSCredPres', '3000.01') + cbs30) },
  'UB126-10': { base: 'normal', edit: credit('000003', '01', credTax('gIBSCredPres', '30.00', true) + cbs30) },
  'UB127-10': { base: 'normal', edit: credit('000003', '07', ibs30 + cbs30) },
  'UB127-20': { base: 'normal', edit: credit('000003', '05', '') },
  'UB129-10': { base: 'normal', edit: credit('000003', '04', ibs30 + credTax('gCBSCredPres', '3000.01')) },
  'UB130-10': { base: 'normal', edit: credit('000003', '01', ibs30 + credTax('gCBSCredPres', '30.00', true)) },
  'W34-10': { base: 'normal', edit: (xml) => xml.replace(/<IBSCBS>[\s\S]*?<\/IBSCBS>/g, '') },
  'W34-20': { base: 'normal', edit: (xml) => xml.replace(/<IBSCBSTot>[\s\S]*?<\/IBSCBSTot>/, '') },
  'W35-10': { base: 'normal', edit: tot('vBCIBSCBS') },
  'W38-10': { base: 'normal', edit: tot('gIBSUF/vDif') },
  'W39-10': { base: 'normal', edit: tot('gIBSUF/vDevTrib') },
  'W41-10': { base: 'normal', edit: tot('gIBSUF/vIBSUF') },
  'W43-10': { base: 'normal', edit: tot('gIBSMun/vDif') },
  'W44-10': { base: 'normal', edit: tot('gIBSMun/vDevTrib') },
  'W46-10': { base: 'normal', edit: tot('gIBSMun/vIBSMun') },
  'W47-10': { base: 'normal', edit: tot('gIBSMun/vIBS') },
  'W48-10': { base: 'normal', edit: tot('gIBSMun/vCredPres') },
  'W53-10': { base: 'normal', edit: tot('gCBS/vDif') },
  'W54-10': { base: 'normal', edit: tot('gCBS/vDevTrib') },
  'W56-10': { base: 'normal', edit: tot('gCBS/vCBS') },
  'W56a-10': { base: 'normal', edit: tot('gCBS/vCredPres') },
};
