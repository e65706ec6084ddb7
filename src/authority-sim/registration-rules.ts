import { isNcmValid, NCM_UNCLASSIFIED, ncmTableCovers } from '../fiscal/layout/ncm.js';
import { isStateRegistrationValid } from '../fiscal/layout/state-registration.js';
import { sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { motivo } from './cstat-messages.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';

// Rules on the registers the authority holds for both models: the state registrations of the parties
// (docs/fiscal/state-registration.md) and the NCM table (docs/fiscal/ncm.md). Written from the MOC 7.0
// rules, apart from the gateway's checks (documents/*/domain), so a gateway bug shows here.

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner ?? '';

/** MOC C17-10 (229), C17-20 (209), E17-50 (210) and I05-20 (778), in the MOC's group order. */
export function registrationRejection(f: NfeFacts): Rejection | null {
  const inf = sliceElement(f.xml, 'infNFe');
  if (!inf) return null;
  const emit = el(inf, 'emit');
  const emitIe = textIn(emit, 'IE');
  const emitUf = textIn(el(emit, 'enderEmit'), 'UF');
  // C17-10 (229): "IE Emitente com zeros ou nulo", before its check digits.
  if (/^0*$/.test(emitIe)) return { cStat: 229, xMotivo: motivo(229), detail: `emit/IE "${emitIe}" is zeros or empty (MOC C17-10)` };
  // C17-20: "Se IE diferente de ISENTO": size, composition or check digit wrong for the issuer's UF.
  if (emitIe && emitIe !== 'ISENTO' && !isStateRegistrationValid(emitUf, emitIe)) {
    return { cStat: 209, xMotivo: motivo(209), detail: `emit/IE ${emitIe} is not a valid ${emitUf} registration (MOC C17-20)` };
  }
  const dest = el(inf, 'dest');
  const destIe = textIn(dest, 'IE');
  const destUf = textIn(el(dest, 'enderDest'), 'UF');
  // E17-50: a recipient IE, when given (never abroad: E17-40), valid for the recipient's UF.
  if (destIe && destIe !== 'ISENTO' && destUf !== 'EX' && !isStateRegistrationValid(destUf, destIe)) {
    return { cStat: 210, xMotivo: motivo(210), detail: `dest/IE ${destIe} is not a valid ${destUf} registration (MOC E17-50)` };
  }
  // I05-20: an 8-digit NCM other than 00000000 must be in the table in force on the emission date.
  const day = f.dhEmi.slice(0, 10);
  for (const det of sliceAll(inf.inner, 'det')) {
    const ncm = textIn(el(det, 'prod'), 'NCM');
    if (/^[0-9]{8}$/.test(ncm) && ncm !== NCM_UNCLASSIFIED && ncmTableCovers(day) && !isNcmValid(ncm, day)) {
      const nItem = /nItem="(\d+)"/.exec(det.outer)?.[1] ?? '?';
      return { cStat: 778, xMotivo: `${motivo(778)}[nItem:${nItem}]`, detail: `item ${nItem}: NCM ${ncm} is not in the NCM table (MOC I05-20)` };
    }
  }
  return null;
}
