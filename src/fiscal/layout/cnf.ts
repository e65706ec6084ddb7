import { randomInt } from 'node:crypto';

// cNF, the 8-digit random code of the key. NT 2019.001 rule B03-10: it must not equal nNF
// (compared as numbers) nor be one of the forbidden sequences below.
const FORBIDDEN = new Set([
  '00000000', '11111111', '22222222', '33333333', '44444444', '55555555', '66666666', '77777777',
  '88888888', '99999999', '12345678', '23456789', '34567890', '45678901', '56789012', '67890123',
  '78901234', '89012345', '90123456', '01234567',
]);

export function isValidCnf(cNF: string, nNF: number): boolean {
  return /^[0-9]{8}$/.test(cNF) && !FORBIDDEN.has(cNF) && Number(cNF) !== nNF;
}

/** A random cNF valid for document number nNF (crypto-grade: the code protects the key). */
export function generateCnf(nNF: number, random: (max: number) => number = (max) => randomInt(max)): string {
  for (;;) {
    const candidate = String(random(100_000_000)).padStart(8, '0');
    if (isValidCnf(candidate, nNF)) return candidate;
  }
}
