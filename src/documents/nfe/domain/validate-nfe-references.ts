import { accessKeyCheckDigit } from '../../../fiscal/layout/access-key.js';
import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import type { NfeRequest } from './nfe-request.js';

// The referenced notes (NFref/refNFe) against the purpose and presence of the NF-e: MOC 7.0 Anexo I
// B25-30..70 and B25b-40. Each error names the request field and the rule.

/** B25-70 (321): returns that need no referenced document (NT 2013/005 v 1.20). */
const RETURN_WITHOUT_REFERENCE_CFOPS = new Set(['1201', '1202', '1410', '1411', '5921', '6921']);

function checkKey(errors: Errors, at: string, key: unknown, complementOf: string | null): void {
  if (typeof key !== 'string' || !/^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/.test(key)) return fail(errors, at, 'must be a 44-character access key');
  if (accessKeyCheckDigit(key.slice(0, 43)) !== Number(key[43])) return fail(errors, at, 'has a wrong check digit (last digit); copy the key again');
  if (!['55', '65'].includes(key.slice(20, 22))) fail(errors, at, 'must be the key of an NF-e (55) or NFC-e (65)');
  // MOC B25-50 (269): a complementary note references a note of the same issuer.
  if (complementOf !== null && key.slice(6, 20) !== complementOf) {
    fail(errors, at, 'must be a note of this issuer: a complementar NF-e completes the issuer\'s own note (MOC B25-50, 269)', 'B25-50');
  }
}

export function checkReferences(errors: Errors, req: NfeRequest, issuerCnpj: string): void {
  const refs = req.referenced_documents ?? [];
  const fin = req.finalidade ?? 'normal';
  if (refs.length > 999) return fail(errors, 'referenced_documents', 'must have at most 999 keys');
  refs.forEach((key, i) => checkKey(errors, `referenced_documents[${i}]`, key, fin === 'complementar' ? issuerCnpj : null));
  if (fin === 'complementar' && refs.length === 0) {
    fail(errors, 'referenced_documents', 'must hold the key of the note a complementar NF-e completes (MOC B25-30, 254)', 'B25-30');
  }
  if (fin === 'complementar' && refs.length > 1) {
    fail(errors, 'referenced_documents', `must hold exactly one key for a complementar NF-e (MOC B25-40, 255); has ${refs.length}`, 'B25-40');
  }
  if (fin === 'ajuste' && refs.length === 0) fail(errors, 'referenced_documents', 'is required for an ajuste NF-e: the key of the note it adjusts');
  const cfops = Array.isArray(req.items) ? req.items.map((i) => i?.cfop) : [];
  if (fin === 'devolucao' && refs.length === 0 && !cfops.some((c) => typeof c === 'string' && RETURN_WITHOUT_REFERENCE_CFOPS.has(c))) {
    fail(errors, 'referenced_documents', 'is required for a devolucao NF-e: the key of the note it returns (MOC B25-70, 321)', 'B25-70');
  }
  // MOC I08-184 / I08-190 (701): an entry of a fiscal coupon (5929/6929) and an indirect export (3503/7501) reference the notes.
  if (refs.length === 0) {
    cfops.forEach((c, i) => {
      if (c === '5929' || c === '6929') fail(errors, `items[${i}].cfop`, `${c} (entry relating to a fiscal coupon) needs the key of the coupon's note in referenced_documents (MOC I08-184, 701)`, 'I08-184');
      if (c === '3503' || c === '7501') fail(errors, `items[${i}].cfop`, `${c} (indirect export) needs the keys of the notes of the goods in referenced_documents (MOC I08-190, 701)`, 'I08-190');
    });
  }
  // MOC B25b-40 (864, NT 2016.002): a presential sale outside the establishment references the note of the goods sent out.
  if (req.presenca === 'presencial_fora' && refs.length === 0) {
    fail(errors, 'referenced_documents', 'is required with presenca presencial_fora: the key of the note that took the goods out of the establishment (MOC B25b-40, 864)', 'B25b-40');
  }
}
