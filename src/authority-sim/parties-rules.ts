import { sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { municipality, ufCode } from '../fiscal/layout/ibge.js';
import { motivo } from './cstat-messages.js';
import type { NfeFacts } from './nfe-facts.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on emitter (C), recipient (E) and referenced documents (BA), written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks.

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner ?? '';

/** The first of these rules `f` breaks, or null. */
export function partyRejection(f: NfeFacts, _ctx: ContentContext): Rejection | null {
  const inf = sliceElement(f.xml, 'infNFe');
  const enderDest = el(el(inf, 'dest'), 'enderDest');
  return (
    cityRejection(el(el(inf, 'emit'), 'enderEmit'), [272, 'C10-10'], [273, 'C10-20']) ??
    cityRejection(enderDest, [274, 'E10-10'], [275, 'E10-20']) ??
    recipientAbroadRejection(f.mod, enderDest)
  );
}

/**
 * MOC C10-10 (272) / E10-10 (274): cMun not in the IBGE table; C10-20 (273) / E10-20 (275): its first two
 * digits differ from the code of the address's UF. The recipient's only when not abroad (UF <> EX).
 */
function cityRejection(ender: ElementSlice | null, unknown: [number, string], otherUf: [number, string]): Rejection | null {
  const uf = textIn(ender, 'UF');
  if (!ender || uf === 'EX') return null;
  const cMun = textIn(ender, 'cMun');
  if (!municipality(cMun)) return { cStat: unknown[0], xMotivo: motivo(unknown[0]), detail: `cMun ${cMun} is not in the IBGE table (MOC ${unknown[1]})` };
  if (cMun.slice(0, 2) !== ufCode(uf)) return { cStat: otherUf[0], xMotivo: motivo(otherUf[0]), detail: `cMun ${cMun} is not in ${uf} (MOC ${otherUf[1]})` };
  return null;
}

/** MOC E10-30 (509) and E14-30 (926): a recipient address abroad (UF EX). */
function recipientAbroadRejection(mod: string, ender: ElementSlice | null): Rejection | null {
  if (!ender || textIn(ender, 'UF') !== 'EX') return null;
  const cMun = textIn(ender, 'cMun');
  // MOC E10-30 (509), model 55: abroad, cMun must be 9999999.
  if (mod === '55' && cMun !== '9999999') {
    return { cStat: 509, xMotivo: motivo(509), detail: `dest UF EX with cMun ${cMun} (MOC E10-30)` };
  }
  // MOC E14-30 (926, NT 2019.001): abroad, cPais cannot be 1058 (Brazil). Not in cstat.json: the rule row's words.
  if (textIn(ender, 'cPais') === '1058') {
    return { cStat: 926, xMotivo: 'Rejeição: Operação com Exterior e país de destino igual a Brasil.', detail: 'dest UF EX with cPais 1058 (MOC E14-30)' };
  }
  return null;
}
