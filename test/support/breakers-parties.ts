import type { NfeRequest } from '../../src/documents/nfe/domain/nfe-request.js';
import { BOTH, NFE, nfe, op, type GoodsBreaker } from './goods-breakers.js';
import { setText } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-parties.ts (see rule-breakers.ts for the three kinds).
const ABROAD = 'the gateway writes cMun 9999999, UF EX and the request\'s non-Brazil cPais for every address abroad (nfe-parties.ts)';
const ISSUER_CITY = 'the issuer\'s address comes from its registration, not from the request';
const address = (c: Parameters<typeof nfe>[0]) => nfe(c).destinatario.address as NonNullable<NfeRequest['destinatario']['address']> & { city_code: string; uf: string };
const domestic = (c: Parameters<typeof nfe>[0]) => op(c).idDest !== 3;

export const PARTIES_BREAKERS: readonly GoodsBreaker[] = [
  // issuer
  { kind: 'document', rule: 'C10-10', code: 272, models: BOTH, why: ISSUER_CITY, break: (d) => ({ xml: setText(d.xml, ['emit', 'enderEmit', 'cMun'], (o) => `${o.slice(0, 2)}99999`) }) },
  { kind: 'document', rule: 'C10-20', code: 273, models: BOTH, why: ISSUER_CITY, break: (d) => ({ xml: setText(d.xml, ['emit', 'enderEmit', 'cMun'], (o) => (o.startsWith('35') ? '3304557' : '3550308')) }) },
  // recipient
  { kind: 'request', rule: 'E10-10', code: 274, models: NFE, applies: domestic, break: (c) => ((address(c).city_code = `${address(c).city_code.slice(0, 2)}99999`), 'destinatario.address.city_code') },
  {
    kind: 'request', rule: 'E10-20', code: 275, models: NFE, applies: domestic,
    break: (c) => ((address(c).city_code = address(c).uf === 'SP' ? '3304557' : '3550308'), 'destinatario.address.city_code'),
  },
  { kind: 'document', rule: 'E10-30', code: 509, models: NFE, why: ABROAD, applies: (c) => op(c).idDest === 3, break: (d) => ({ xml: setText(d.xml, ['dest', 'enderDest', 'cMun'], () => '3550308') }) },
  { kind: 'document', rule: 'E14-30', code: 926, models: NFE, why: ABROAD, applies: (c) => op(c).idDest === 3, break: (d) => ({ xml: setText(d.xml, ['dest', 'enderDest', 'cPais'], () => '1058') }) },
];
