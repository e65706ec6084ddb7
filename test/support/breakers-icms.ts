import type { NfeItem } from '../../src/documents/nfe/domain/nfe-request.js';
import { BOTH, COMPUTED, last, NFCE, NFE, nfe, op, sale, type GoodsBreaker, type GoodsCase } from './goods-breakers.js';

// Breakers of the rules in authority-sim/enforced-icms.ts (see rule-breakers.ts for the three kinds).

const regimeNormal = (c: GoodsCase) => c.issuer.crt === 3;
/** The last item made a CST (regime normal) or CSOSN (Simples) `code`; returns its code field. */
function setCode(c: GoodsCase, code: string): string {
  const item = sale(c).items[last(c)]!;
  delete item.cst_icms;
  delete item.csosn;
  if (code.length === 2) item.cst_icms = code;
  else item.csosn = code;
  return `items[${last(c)}].${code.length === 2 ? 'cst_icms' : 'csosn'}`;
}
/** The last item with `code`, valid otherwise, and the CFOP `cfop`; returns the CFOP field. */
function withCfop(c: GoodsCase, code: string, cfop: string): string {
  setCode(c, code);
  const item = sale(c).items[last(c)]!;
  delete item.st;
  item.cfop = cfop;
  return `items[${last(c)}].cfop`;
}
/** The last item with code 90 / 900 and an ST block; returns the st field. */
function withSt(c: GoodsCase, code: string): string {
  setCode(c, code);
  const item = sale(c).items[last(c)]!;
  item.cfop = '5102';
  item.st = { rate: 18 };
  return `items[${last(c)}].st`;
}

const withFcp = (c: GoodsCase) => c.req.items.findIndex((i) => i.fcp_rate !== undefined);
const withFcpSt = (c: GoodsCase) => c.req.items.findIndex((i) => i.st?.fcp_rate !== undefined);

/** The last NF-e item reduced to the ICMS code `code` alone (no ST, own ICMS, relief or interstate group); returns the code field. */
function onlyCode(c: GoodsCase, code: string): string {
  const item = nfe(c).items[last(c)]! as NfeItem;
  for (const k of ['st', 'st_retained', 'st_repasse', 'icms_partilha', 'fcp_rate', 'vBC', 'icms_base_reduction', 'pICMS', 'icms_relief', 'deferral_rate', 'simples_credit_rate'] as const) delete item[k];
  return setCode(c, code);
}
const withRetainedFcp = (c: GoodsCase) => nfe(c).items.findIndex((i) => i.st_repasse?.retained_fcp !== undefined);
/** The first element `tag` of the items (before ICMSTot) with its value raised by R$ 0.05. */
function raiseFirst(xml: string, tag: string): string {
  const end = xml.indexOf('<total>');
  return xml.slice(0, end).replace(new RegExp(`<${tag}>([0-9.]+)</${tag}>`), (_, v: string) => `<${tag}>${(Number(v) + 0.05).toFixed(2)}</${tag}>`) + xml.slice(end);
}
/** The first ICMS group named by `groups` (e.g. '00|10|20|70') that has `tag`, up to the tag's value. */
const inGroup = (groups: string, tag: string) => new RegExp(`(<ICMS(${groups})>(?:(?!</ICMS\\2>)[\\s\\S])*?<${tag}>)([0-9.]+)(</${tag}>)`);
/** That value raised by R$ 0.05. */
const raiseInGroup = (xml: string, groups: string, tag: string) =>
  xml.replace(inGroup(groups, tag), (_, head: string, _g: string, v: string, tail: string) => `${head}${(Number(v) + 0.05).toFixed(2)}${tail}`);
const hasGroup = (xml: string, groups: string, tag: string) => inGroup(groups, tag).test(xml);
/** An item (not ICMSTot) carries `tag`. */
const inItems = (xml: string, tag: string) => xml.slice(0, xml.indexOf('<total>')).includes(`<${tag}>`);
const outboundTo = (c: GoodsCase, indIEDest: number) => op(c).indIEDest === indIEDest && op(c).tpNF === 1;

export const ICMS_BREAKERS: readonly GoodsBreaker[] = [
  { kind: 'request', rule: 'N12-30', code: 766, models: NFCE, applies: regimeNormal, break: (c) => setCode(c, '30') },
  { kind: 'request', rule: 'N12-34', code: 381, models: NFCE, applies: regimeNormal, break: (c) => withSt(c, '90') },
  { kind: 'request', rule: 'N12-40', code: 382, models: NFCE, applies: regimeNormal, break: (c) => withCfop(c, '41', '5405') },
  { kind: 'request', rule: 'N12-44', code: 382, models: NFCE, applies: regimeNormal, break: (c) => withCfop(c, '60', '5102') },
  { kind: 'request', rule: 'N12a-20', code: 383, models: NFCE, applies: (c) => !regimeNormal(c), break: (c) => setCode(c, '202') },
  { kind: 'request', rule: 'N12a-34', code: 385, models: NFCE, applies: (c) => !regimeNormal(c), break: (c) => withSt(c, '900') },
  { kind: 'request', rule: 'N12a-40', code: 386, models: NFCE, applies: (c) => !regimeNormal(c), break: (c) => withCfop(c, '400', '5405') },
  { kind: 'request', rule: 'N12a-44', code: 386, models: NFCE, applies: (c) => !regimeNormal(c), break: (c) => withCfop(c, '500', '5102') },
  { kind: 'request', rule: 'N17b-10', code: 880, models: BOTH, applies: (c) => withFcp(c) >= 0, break: (c) => ((c.req.items[withFcp(c)]!.fcp_rate = 0), `items[${withFcp(c)}].fcp_rate`) },
  {
    kind: 'request', rule: 'N23b-10', code: 881, models: NFE, applies: (c) => withFcpSt(c) >= 0,
    break: (c) => {
      const k = withFcpSt(c);
      c.req.items[k]!.st!.fcp_rate = 0;
      return `items[${k}].st.fcp_rate`;
    },
  },
  { kind: 'request', rule: 'N12-70', code: 508, models: NFE, applies: (c) => regimeNormal(c) && outboundTo(c, 9), break: (c) => onlyCode(c, '90') },
  { kind: 'request', rule: 'N12-80', code: 529, models: NFE, applies: (c) => regimeNormal(c) && op(c).indIEDest === 2, break: (c) => onlyCode(c, '50') },
  // RJ applies N12-85 to the NF-e with CST 20/30/40/70 (assets/fiscal/rules/cbenef-required.json): the random issuers are an
  // RJ one of the normal regime in about 1 case of 108, too rare for the draw to reach it in a run.
  { kind: 'excluded', rule: 'N12-85', code: 930, why: 'a state rule (RJ issuers only): the gateway 422 and the simulator 930 are tested in test/nfe-cbenef.test.ts and src/documents/nfe/domain/validate-cbenef.test.ts' },
  // NT 2023.001's monophase item rules: the random sales carry no monophase group, and the gateway always writes the
  // quantities and computes the values; each is broken in a document the gateway wrote in test/icms-mono-rules.test.ts.
  ...(['N43a-10/769', 'N37a-10/767', 'N39a-10/768', 'N39-10/962', 'N41-10/964', 'N41-20/964'].map((k) => {
    const [rule, code] = k.split('/') as [string, string];
    return { kind: 'excluded' as const, rule, code: Number(code), why: 'a monophase fuel rule (NT 2023.001): broken in a document the gateway wrote in test/icms-mono-rules.test.ts' };
  })),
  { kind: 'request', rule: 'N12a-70', code: 600, models: NFE, applies: (c) => !regimeNormal(c) && outboundTo(c, 9), break: (c) => onlyCode(c, '900') },
  {
    kind: 'request', rule: 'N16-20', code: 693, models: NFE,
    applies: (c) => regimeNormal(c) && op(c).idDest === 2 && op(c).tpNF === 1 && op(c).finNFe === 1 && /^6(10[1-6]|40[1-5])$/.test(nfe(c).items[last(c)]!.cfop),
    break: (c) => {
      onlyCode(c, '00');
      const item = nfe(c).items[last(c)]!;
      item.origin = 0;
      item.pICMS = 18;
      return `items[${last(c)}].pICMS`;
    },
  },
  { kind: 'document', rule: 'N17c-10', code: 860, models: BOTH, why: COMPUTED, applies: (c, d) => inItems(d.xml, 'vFCP') && (c.model === 65 || op(c).finNFe === 1), break: (d) => ({ xml: raiseFirst(d.xml, 'vFCP') }) },
  {
    kind: 'request', rule: 'N17c-20', code: 876, models: NFE, applies: (c) => regimeNormal(c) && op(c).idDest === 2 && op(c).indFinal === 1 && op(c).indIEDest === 9,
    break: (c) => {
      onlyCode(c, '00');
      const item = nfe(c).items[last(c)]!;
      item.pICMS = 7;
      item.fcp_rate = 2;
      return `items[${last(c)}].fcp_rate`;
    },
  },
  {
    kind: 'request', rule: 'N23-10', code: 806, models: NFE,
    break: (c) => {
      onlyCode(c, regimeNormal(c) ? '60' : '500');
      delete nfe(c).items[last(c)]!.cest;
      return `items[${last(c)}].cest`;
    },
  },
  { kind: 'document', rule: 'N23d-10', code: 860, models: NFE, why: COMPUTED, applies: (c, d) => inItems(d.xml, 'vFCPST') && op(c).finNFe === 1, break: (d) => ({ xml: raiseFirst(d.xml, 'vFCPST') }) },
  {
    kind: 'request', rule: 'N27b-10', code: 881, models: NFE, applies: (c) => withRetainedFcp(c) >= 0,
    break: (c) => {
      const k = withRetainedFcp(c);
      nfe(c).items[k]!.st_repasse!.retained_fcp!.rate = 0;
      return `items[${k}].st_repasse.retained_fcp.rate`;
    },
  },
  {
    kind: 'request', rule: 'N27d-10', code: 860, models: NFE, applies: (c) => withRetainedFcp(c) >= 0 && op(c).finNFe === 1 && nfe(c).items[withRetainedFcp(c)]!.cst_icms === '60',
    break: (c) => {
      const k = withRetainedFcp(c);
      const fcp = nfe(c).items[k]!.st_repasse!.retained_fcp!;
      fcp.amount = Math.round(fcp.amount * 100 + 100) / 100;
      return `items[${k}].st_repasse.retained_fcp.amount`;
    },
  },
  { kind: 'document', rule: 'N16a-10', code: 351, models: NFE, why: COMPUTED, applies: (_c, d) => hasGroup(d.xml, '51', 'vICMSOp'), break: (d) => ({ xml: raiseInGroup(d.xml, '51', 'vICMSOp') }) },
  { kind: 'document', rule: 'N16c-10', code: 352, models: NFE, why: COMPUTED, applies: (_c, d) => hasGroup(d.xml, '51', 'vICMSDif'), break: (d) => ({ xml: raiseInGroup(d.xml, '51', 'vICMSDif') }) },
  { kind: 'document', rule: 'N17-10', code: 353, models: NFE, why: COMPUTED, applies: (_c, d) => hasGroup(d.xml, '51', 'vICMS'), break: (d) => ({ xml: raiseInGroup(d.xml, '51', 'vICMS') }) },
  {
    kind: 'document', rule: 'N17-20', code: 528, models: BOTH, why: COMPUTED, applies: (c, d) => hasGroup(d.xml, '00|10|20|70', 'vICMS') && (c.model === 65 || op(c).finNFe === 1),
    break: (d) => ({ xml: raiseInGroup(d.xml, '00|10|20|70', 'vICMS') }),
  },
  {
    kind: 'request', rule: 'N28-30', code: 627, models: NFE, applies: (c) => nfe(c).items.some((i) => i.icms_relief !== undefined),
    break: (c) => {
      const k = nfe(c).items.findIndex((i) => i.icms_relief !== undefined);
      nfe(c).items[k]!.icms_relief!.amount = 0;
      return `items[${k}].icms_relief.amount`;
    },
  },
];
