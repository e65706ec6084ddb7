import type { Carrier } from '../../src/documents/goods/domain/transport.js';
import type { SalePayment, SaleTenders } from '../../src/documents/goods/domain/sale-item.js';
import { CARD_GROUP_METHODS, CARD_METHODS } from '../../src/fiscal/layout/payment-codes.js';
import { BOTH, COMPUTED, hasTag, nfe, NFCE, NFE, op, sale, WRITTEN, type GoodsBreaker, type GoodsCase } from './goods-breakers.js';
import { editAt, otherLastDigit, plusCent, setText, textAt } from './rule-breakers.js';
import { VALID_IE } from './state-registrations.js';

// Breakers of the rules in authority-sim/enforced-totals.ts (see rule-breakers.ts for the three kinds).

const total = (xml: string, name: string) => textAt(xml, ['total', 'ICMSTot', name]);
const bump = (xml: string, name: string) => setText(xml, ['total', 'ICMSTot', name], plusCent);

// A total outside the sum of vNF (MOC W16-10): one cent more breaks only its own rule.
const ALONE = [
  ['W03-10', 531, 'vBC', BOTH], ['W04-10', 532, 'vICMS', BOTH], ['W04a-10', 795, 'vICMSDeson', BOTH], ['W04b-10', 861, 'vFCP', BOTH],
  ['W04c-10', 798, 'vFCPUFDest', NFE], ['W04e-10', 799, 'vICMSUFDest', NFE], ['W04g-10', 800, 'vICMSUFRemet', NFE], ['W05-10', 533, 'vBCST', BOTH],
  ['W06b-10', 859, 'vFCPSTRet', NFE], ['W13-10', 602, 'vPIS', BOTH], ['W14-10', 603, 'vCOFINS', BOTH], ['W16a-10', 685, 'vTotTrib', BOTH],
] as const;
// A total that vNF adds: one cent more, and one cent more of a total vNF subtracts (vDesc) or adds
// that the authority checks later (vOutro, W15 after W10), keeps vNF right (W16-10 610 holds).
const OFFSET = [
  ['W06-10', 534, 'vST', 'vDesc', BOTH], ['W06a-10', 862, 'vFCPST', 'vDesc', NFE], ['W08-10', 535, 'vFrete', 'vDesc', BOTH],
  ['W09-10', 536, 'vSeg', 'vDesc', BOTH], ['W10-10', 537, 'vDesc', 'vOutro', BOTH],
] as const;
// vNF adds them and nothing checked after them offsets them: vNF and the first payment one cent more
// (the change, sum(vPag) - vNF, stays right). Model 55: the NFC-e's QR code carries vNF.
const WITH_VNF = [['W11-10', 601, 'vII'], ['W12-10', 538, 'vIPI'], ['W12a-10', 863, 'vIPIDevol'], ['W15-10', 604, 'vOutro']] as const;

const tenders = (c: GoodsCase): SalePayment[] => {
  const r = c.req as SaleTenders;
  return r.payments ?? (r.payment ? [r.payment] : []);
};
const tenderAt = (c: GoodsCase, k: number) => ((c.req as SaleTenders).payments ? `payments[${k}]` : 'payment');
const cardTender = (c: GoodsCase) => tenders(c).findIndex((p) => CARD_GROUP_METHODS.has(p.method));
/** The request paid with one tender (the others dropped). */
function payOnly(c: GoodsCase, p: SalePayment): string {
  const r = c.req as SaleTenders;
  delete r.payments;
  r.payment = p;
  return 'payment';
}
const carrierOf = (c: GoodsCase) => (c.req as { transporte?: { transportadora?: Carrier } }).transporte?.transportadora;

const RET_TRANSP = '<retTransp><vServ>10.00</vServ><vBCRet>10.00</vBCRet><pICMSRet>12.00</pICMSRet><vICMSRet>1.20</vICMSRet><CFOP>5353</CFOP><cMunFG>3599999</cMunFG></retTransp>';
const COBR = '<cobr><fat><nFat>1</nFat><vOrig>1.00</vOrig><vDesc>0.00</vDesc><vLiq>1.00</vLiq></fat></cobr>';
const INTERMED = '<infIntermed><CNPJ>10422724000187</CNPJ><idCadIntTran>loja-oficial-123</idCadIntTran></infIntermed>';
const CARD_TENDER = /(<tPag>0[34]<\/tPag><vPag>[^<]*<\/vPag>)<card>[\s\S]*?<\/card>/;

export const TOTALS_BREAKERS: readonly GoodsBreaker[] = [
  // W: totals against the items' values
  ...ALONE.map(([rule, code, name, models]): GoodsBreaker => ({
    kind: 'document', rule, code, models, why: COMPUTED, applies: (_c, d) => total(d.xml, name) !== null, break: (d) => ({ xml: bump(d.xml, name) }),
  })),
  ...OFFSET.map(([rule, code, name, offset, models]): GoodsBreaker => ({
    kind: 'document', rule, code, models, why: COMPUTED, break: (d) => ({ xml: bump(bump(d.xml, name), offset) }),
  })),
  ...WITH_VNF.map(([rule, code, name]): GoodsBreaker => ({
    kind: 'document', rule, code, models: NFE, why: COMPUTED, break: (d) => ({ xml: setText(bump(bump(d.xml, name), 'vNF'), ['pag', 'detPag', 'vPag'], plusCent) }),
  })),
  {
    kind: 'request', rule: 'W16-30', code: 780, models: NFCE,
    break: (c) => (Object.assign(c.req.items[0]!, { quantity: 1000, unit_price: 1000 }), 'items'),
  },
  { kind: 'request', rule: 'W16-40', code: 750, models: NFCE, applies: (c) => c.vNF > 1_000_000 && !sale(c).home_delivery, break: (c) => (delete sale(c).consumer, 'consumer.cpf') },
  { kind: 'request', rule: 'W16-60', code: 752, models: NFCE, applies: (c) => c.vNF > 1_000_000 && !sale(c).home_delivery && sale(c).consumer !== undefined, break: (c) => (delete sale(c).consumer!.address, 'consumer.address') },
  // X: transport
  {
    kind: 'request', rule: 'X02-20', code: 868, models: NFE, applies: (c) => op(c).idDest === 2,
    break: (c) => ((nfe(c).transporte = { ...(nfe(c).transporte ?? { modalidade: 'emitente' }), veiculo: { placa: 'ABC1D23', uf: 'PR' } }), 'transporte.veiculo'),
  },
  {
    kind: 'request', rule: 'X07-20', code: 544, models: BOTH, applies: (c) => carrierOf(c)?.uf !== undefined && VALID_IE[carrierOf(c)!.uf!] !== undefined,
    break: (c) => ((carrierOf(c)!.ie = otherLastDigit(VALID_IE[carrierOf(c)!.uf!]!)), 'transporte.transportadora.ie'),
  },
  {
    kind: 'document', rule: 'X17-10', code: 288, models: NFE, why: 'the NF-e request has no ICMS retention on transport (retTransp)',
    break: (d) => ({ xml: hasTag(d.xml, 'transporta') ? d.xml.replace('</transporta>', `</transporta>${RET_TRANSP}`) : d.xml.replace(/<modFrete>[0-9]<\/modFrete>/, (m) => m + RET_TRANSP) }),
  },
  // Y: billing
  { kind: 'document', rule: 'Y01-10', code: 760, models: NFCE, why: 'the NFC-e request has no billing (cobranca is NF-e only)', break: (d) => ({ xml: d.xml.replace('<pag>', `${COBR}<pag>`) }) },
  {
    kind: 'request', rule: 'Y05-10', code: 901, models: NFE, applies: (c) => nfe(c).cobranca?.fatura !== undefined,
    break: (c) => {
      const f = nfe(c).cobranca!.fatura!;
      f.desconto = Number(plusCent(String(f.valor_original)));
      return 'cobranca.fatura.desconto';
    },
  },
  { kind: 'document', rule: 'Y08-10', code: 852, models: NFE, why: WRITTEN, applies: (_c, d) => hasTag(d.xml, 'dup'), break: (d) => ({ xml: setText(d.xml, ['cobr', 'dup', 'nDup'], () => '1') }) },
  {
    kind: 'request', rule: 'Y09-20', code: 900, models: NFE, applies: (c) => (nfe(c).cobranca?.duplicatas?.length ?? 0) >= 1,
    break: (c) => ((nfe(c).cobranca!.duplicatas![0]!.vencimento = '2025-12-01'), 'cobranca.duplicatas[0].vencimento'),
  },
  // YA: payments
  {
    kind: 'request', rule: 'YA02-04', code: 871, models: NFE, applies: (c) => ['ajuste', 'devolucao'].includes(nfe(c).finalidade ?? 'normal'),
    break: (c) => payOnly(c, { method: 'dinheiro', amount: Math.max(c.vNF, 1) / 100 }),
  },
  { kind: 'document', rule: 'YA02-10', code: 857, models: NFCE, why: 'the NFC-e request has no duplicata mercantil method (tPag 14)', break: (d) => ({ xml: setText(d.xml, ['pag', 'detPag', 'tPag'], () => '14') }) },
  { kind: 'request', rule: 'YA02-40', code: 899, models: NFCE, break: (c) => (payOnly(c, { method: 'sem_pagamento', amount: 0 }), 'payment.method') },
  { kind: 'request', rule: 'YA02-50', code: 436, models: NFCE, break: (c) => (payOnly(c, { method: 'outros', amount: Math.max(c.vNF, 1) / 100, description: 'Permuta de mercadoria' }), 'payment.method') },
  {
    kind: 'document', rule: 'YA03-30', code: 904, models: NFE, why: 'the gateway writes vPag 0 for sem_pagamento',
    applies: (c, d) => c.vNF >= 1 && d.xml.includes('<tPag>90</tPag>'), break: (d) => ({ xml: d.xml.replace(/(<tPag>90<\/tPag><vPag>)[^<]*/, '$10.01') }),
  },
  { kind: 'document', rule: 'YA04-10', code: 391, models: NFCE, why: WRITTEN, applies: (_c, d) => CARD_TENDER.test(d.xml), break: (d) => ({ xml: d.xml.replace(CARD_TENDER, '$1') }) },
  {
    kind: 'request', rule: 'YA05-10', code: 392, models: BOTH, applies: (c) => cardTender(c) >= 0,
    break: (c) => {
      const k = cardTender(c);
      const p = tenders(c)[k]!;
      Object.assign(p, { integrated: true, card_authorization: 'AUT1' }, CARD_METHODS.has(p.method) ? { card_brand: 'visa' } : {});
      delete p.acquirer_cnpj;
      return `${tenderAt(c, k)}.acquirer_cnpj`;
    },
  },
  {
    kind: 'request', rule: 'YA05-20', code: 437, models: BOTH, applies: (c) => cardTender(c) >= 0,
    break: (c) => ((tenders(c)[cardTender(c)]!.acquirer_cnpj = otherLastDigit('10422724000187')), `${tenderAt(c, cardTender(c))}.acquirer_cnpj`),
  },
  // YB: intermediary
  { kind: 'document', rule: 'YB01-10', code: 438, models: NFE, why: 'the gateway writes indIntermed 1 exactly when it writes infIntermed', applies: (_c, d) => hasTag(d.xml, 'infIntermed'), break: (d) => ({ xml: editAt(d.xml, ['infIntermed'], () => '') }) },
  {
    kind: 'document', rule: 'YB01-20', code: 439, models: NFE, why: 'the gateway writes indIntermed 1 exactly when it writes infIntermed',
    applies: (_c, d) => d.xml.includes('<indIntermed>0</indIntermed>'), break: (d) => ({ xml: d.xml.replace('</pag>', `</pag>${INTERMED}`) }),
  },
  { kind: 'request', rule: 'YB02-10', code: 440, models: NFE, applies: (c) => nfe(c).intermediador !== undefined, break: (c) => ((nfe(c).intermediador!.cnpj = otherLastDigit(nfe(c).intermediador!.cnpj)), 'intermediador.cnpj') },
];
