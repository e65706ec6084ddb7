import { accessKeyCheckDigit } from '../../../fiscal/layout/access-key.js';
import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { ufAbbreviation } from '../../../fiscal/sefaz/endpoints.js';
import { isValidCnpj, isValidCpf } from '../../../kernel/tax-id.js';
import type { NfeRequest } from './nfe-request.js';

// The referenced notes (NFref/refNFe) against the purpose and presence of the NF-e: MOC 7.0 Anexo I
// B25-30..70 and B25b-40. Each error names the request field and the rule.

/** B25-70 (321): returns that need no referenced document (NT 2013/005 v 1.20). */
const RETURN_WITHOUT_REFERENCE_CFOPS = new Set(['1201', '1202', '1410', '1411', '5921', '6921']);

/** BA02-30: a CPF in a key is three zeros and the CPF (not zeros; one repeated digit has right check digits). */
const cpfInKey = (id: string) => id.startsWith('000') && !/^0+$/.test(id) && (/^(\d)\1{10}$/.test(id.slice(3)) || isValidCpf(id.slice(3)));

/** MOC BA02-10..40 (547, 522, 524, 552, 679, 683): the parts of a referenced key; `year` the current one (4 digits) when known. */
function checkKey(errors: Errors, at: string, key: unknown, complementOf: string | null, year: number | undefined): void {
  if (typeof key !== 'string' || !/^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/.test(key)) return fail(errors, at, 'must be a 44-character access key');
  if (accessKeyCheckDigit(key.slice(0, 43)) !== Number(key[43])) return fail(errors, at, 'has a wrong check digit (last digit); copy the key again (MOC BA02-10, 547)', 'BA02-10');
  if (!ufAbbreviation(key.slice(0, 2))) fail(errors, at, `starts with ${key.slice(0, 2)}, which is not the IBGE code of a state (MOC BA02-14, 522)`, 'BA02-14');
  const yy = Number(key.slice(2, 4));
  if (yy < 6 || (year !== undefined && yy > year % 100)) fail(errors, at, `has the emission year ${key.slice(2, 4)} (positions 3-4), before 06 or after this year (MOC BA02-20, 524)`, 'BA02-20');
  const mm = Number(key.slice(4, 6));
  if (mm < 1 || mm > 12) fail(errors, at, `has the emission month ${key.slice(4, 6)} (positions 5-6), not 01-12 (MOC BA02-24, 524)`, 'BA02-24');
  const serie = Number(key.slice(22, 25));
  const id = key.slice(6, 20);
  if (serie <= 909 ? !isValidCnpj(id) : serie <= 969 && !cpfInKey(id)) {
    fail(errors, at, `holds an issuer ${id} (positions 7-20) that is not a valid ${serie <= 909 ? 'CNPJ' : 'CPF'} for series ${serie} (MOC BA02-30, 552)`, 'BA02-30');
  }
  if (!['55', '65'].includes(key.slice(20, 22))) fail(errors, at, 'must be the key of an NF-e (55) or NFC-e (65) (MOC BA02-34, 679)', 'BA02-34');
  if (/^0+$/.test(key.slice(25, 34))) fail(errors, at, 'has the number 000000000 (positions 26-34) (MOC BA02-40, 683)', 'BA02-40');
  // MOC B25-50 (269): a complementary note references a note of the same issuer.
  if (complementOf !== null && key.slice(6, 20) !== complementOf) {
    fail(errors, at, 'must be a note of this issuer: a complementar NF-e completes the issuer\'s own note (MOC B25-50, 269)', 'B25-50');
  }
}

export function checkReferences(errors: Errors, req: NfeRequest, issuerCnpj: string, today?: string): void {
  const refs = req.referenced_documents ?? [];
  const fin = req.finalidade ?? 'normal';
  if (refs.length > 999) return fail(errors, 'referenced_documents', 'must have at most 999 keys');
  const year = today ? Number(today.slice(0, 4)) : undefined;
  refs.forEach((key, i) => {
    checkKey(errors, `referenced_documents[${i}]`, key, fin === 'complementar' ? issuerCnpj : null, year);
    // MOC BA02-44 (680): each note referenced once.
    if (refs.indexOf(key) < i) fail(errors, `referenced_documents[${i}]`, `repeats referenced_documents[${refs.indexOf(key)}] (MOC BA02-44, 680)`, 'BA02-44');
  });
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
