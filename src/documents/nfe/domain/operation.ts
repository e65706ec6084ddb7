import type { NfeAddress } from './nfe-request.js';

// What the parties and CFOPs decide about an NF-e, derived and never asked for: the destination
// (ide/idDest), the direction (ide/tpNF), the interstate ICMS rate and whether DIFAL applies.

export const BRAZIL = '1058';

export function isAbroad(a: Pick<NfeAddress, 'country_code'>): boolean {
  return a.country_code !== undefined && a.country_code !== BRAZIL;
}

/** idDest: 1 internal (same state), 2 interstate, 3 abroad. */
export function destinationOf(issuerUf: string, a: Pick<NfeAddress, 'country_code' | 'uf'>): 1 | 2 | 3 {
  if (isAbroad(a)) return 3;
  return a.uf === issuerUf ? 1 : 2;
}

/**
 * The CFOP's first digit: 1/2/3 inbound (tpNF 0), 5/6/7 outbound (tpNF 1); 1/5 internal, 2/6
 * interstate, 3/7 abroad (MOC I08-10..50: 518, 519, 731, 732, 733). Undefined for another digit.
 */
export function cfopScope(cfop: string): { tpNF: 0 | 1; idDest: 1 | 2 | 3 } | undefined {
  const first = Number(cfop[0]);
  if (![1, 2, 3, 5, 6, 7].includes(first)) return undefined;
  return { tpNF: first >= 5 ? 1 : 0, idDest: (((first - 1) % 4) + 1) as 1 | 2 | 3 };
}

const SOUTH_SOUTHEAST_BUT_ES = new Set(['SP', 'RJ', 'MG', 'PR', 'SC', 'RS']);

/**
 * pICMSInter (scale 4): 4% for imported goods (orig 1, 2, 3, 8; MOC NA09-10/20, 697); otherwise
 * 7% from the South and Southeast but ES to the North, Northeast, Center-West and ES, 12% in the
 * other cases (MOC NA09-30, 698).
 */
export function interstateRate(origin: number, fromUf: string, toUf: string): number {
  if ([1, 2, 3, 8].includes(origin)) return 40_000;
  return SOUTH_SOUTHEAST_BUT_ES.has(fromUf) && !SOUTH_SOUTHEAST_BUT_ES.has(toUf) ? 70_000 : 120_000;
}

export interface DifalFacts {
  idDest: 1 | 2 | 3;
  indFinal: 0 | 1;
  indIEDest: 1 | 2 | 9;
  tpNF: 0 | 1;
  finNFe: 1 | 2 | 3 | 4 | 5 | 6;
  crt: number;
}

/** MOC NA01-30 (695): ICMSUFDest only in an interstate operation with a non-taxpayer final consumer. */
export function difalAllowed(f: DifalFacts): boolean {
  return f.idDest === 2 && f.indFinal === 1 && f.indIEDest === 9;
}

/** Codes exempt, immune or not taxed: NA01-20 exception 10. */
const UNTAXED = new Set(['40', '41', '103', '300', '400']);
/** CFOPs of NA01-20 exception 9 (asset transfer, future delivery billing, coupon entry). */
const EXCEPTED_CFOPS = new Set(['6552', '6922', '6929']);

/**
 * MOC NA01-20 (694): ICMSUFDest is required in an outbound interstate sale to a non-taxpayer final
 * consumer, except for Simples issuers (CRT 1, exception 12), complementary or adjustment notes
 * (exception 11), untaxed items (exception 10) and the CFOPs of exception 9. The exceptions that
 * need the CFOP table (returns, shipments) are left to the authority.
 */
export function difalRequired(f: DifalFacts, icmsCode: string, cfop: string): boolean {
  return difalAllowed(f) && f.tpNF === 1 && f.crt !== 1 && f.finNFe !== 2 && f.finNFe !== 3 && !UNTAXED.has(icmsCode) && !EXCEPTED_CFOPS.has(cfop);
}
