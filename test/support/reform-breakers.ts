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
