import { BOTH, last, NFCE, NFE, sale, type GoodsBreaker, type GoodsCase } from './goods-breakers.js';

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
];
