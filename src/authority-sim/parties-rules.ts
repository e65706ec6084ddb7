import { sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
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
  return recipientAbroadRejection(f.mod, el(el(inf, 'dest'), 'enderDest'));
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
