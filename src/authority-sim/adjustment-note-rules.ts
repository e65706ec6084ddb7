import { mocRule } from '../fiscal/rules/rule-table.js';
import { sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';

// NT 2025.002-RTC rules on the credit (finNFe 5) and debit (finNFe 6) notes of the tax reform, written
// from the rule texts as docs/fiscal/credit-debit-notes.md transcribes them (with their sources),
// independently of the gateway's own checks. Only the rules whose code and message were read in two
// sources are answered; the others are listed there with why. Never stricter than the authority:
// where the sources disagree on an exception, every exception any of them gives is kept.

/** The messages, as the NT and the vendors' knowledge bases quoting it give them (placeholders dropped). */
const NT_MESSAGES: Record<number, string> = {
  1001: 'Rejeição: NF-e com finalidade de débito ou crédito somente para IBS/CBS',
  1003: 'Rejeição: NF-e de crédito faz referência a documento fiscal diferente de NF-e modelo 55',
  1133: 'Rejeição: Finalidade de Emissão da Nota Fiscal incompatível com o CST',
  1152: 'Rejeição: Tipo de Operação incompatível com NF-e de Crédito do tipo Retorno',
  1164: 'Rejeição: Não informado tipo de nota de crédito',
};

function reject(rule: string, cStat: number, detail: string, nItem?: string): Rejection {
  // B25-30/40/50/60 keep the MOC 7.0 words (the NT extends the rows to the credit note, not their text).
  const words = NT_MESSAGES[cStat] ?? (mocRule(rule, cStat)?.message ?? `Rejeição: código ${cStat}`).replace(/\s*\[[^\]]*\]/g, '').trim();
  return { cStat, xMotivo: nItem === undefined ? words : `${words} [nItem:${nItem}]`, detail: `${detail} (NT 2025.002-RTC ${rule})` };
}

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner.trim() ?? '';

/**
 * B25-80 (1001): the groups a credit or debit note's item may not carry. Its exceptions as read:
 * credit 03 (return refused at delivery; every source), and credit 04, credit 06 and debit 07 (one source,
 * NT v1.40/v1.50 as transcribed by a third party): all are exempted, so the simulator is never stricter.
 */
const NON_REFORM_GROUPS = ['ICMS', 'ISSQN', 'IPI', 'II', 'PIS', 'PISST', 'COFINS', 'COFINSST', 'ICMSUFDest'] as const;
const B25_80_EXEMPT_CREDIT = new Set(['03', '04', '06']);
const B25_80_EXEMPT_DEBIT = new Set(['07']);

/** Credit types whose note references the adjusted NF-e at note level: B25-30/40 (01, 03, 04), B25-50/60 (03, 04). */
const ONE_REFERENCE_CREDIT = new Set(['01', '03', '04']);
const OWN_NOTE_CREDIT = new Set(['03', '04']);

interface Note {
  ide: ElementSlice | null;
  refs: Array<{ kind: string; text: string }>;
  items: Array<{ nItem: string; det: ElementSlice; imposto: ElementSlice | null }>;
}

function noteOf(f: NfeFacts): Note {
  const inf = sliceElement(f.xml, 'infNFe');
  const ide = el(inf, 'ide');
  const refs = (ide ? sliceAll(ide.inner, 'NFref') : []).flatMap((r) => {
    const kind = /^\s*<(?:[A-Za-z0-9_]+:)?([A-Za-z0-9]+)[\s>]/.exec(r.inner)?.[1];
    return kind ? [{ kind, text: textIn(r, kind) }] : [];
  });
  const items = (inf ? sliceAll(inf.inner, 'det') : []).map((det) => ({ nItem: /nItem="(\d+)"/.exec(det.outer.slice(0, 40))?.[1] ?? '', det, imposto: el(det, 'imposto') }));
  return { ide, refs, items };
}

/** B25.2-20 (1164), B25.2-40 (1152), B25-100 (1003), B25-30/40/50/60 for a credit note. */
function creditRejection(f: NfeFacts, n: Note): Rejection | null {
  const type = textIn(n.ide, 'tpNFCredito');
  if (type === '') return reject('B25.2-20', 1164, 'finNFe 5 without tpNFCredito');
  if (type === '03' && textIn(n.ide, 'tpNF') !== '0') return reject('B25.2-40', 1152, `tpNFCredito 03 with tpNF ${textIn(n.ide, 'tpNF')}`);
  const models = type === '03' ? ['55', '65'] : ['55'];
  const other = n.refs.find((r) => r.kind !== 'refNFe' || !models.includes(r.text.slice(20, 22)));
  if (other) return reject('B25-100', 1003, `credit note ${type} references ${other.kind} ${other.kind === 'refNFe' ? `of model ${other.text.slice(20, 22)}` : ''}`.trim());
  if (!ONE_REFERENCE_CREDIT.has(type)) return null;
  if (n.refs.length === 0) return reject('B25-30', 254, `credit note ${type} without a referenced note`);
  if (n.refs.length > 1) return reject('B25-40', 255, `credit note ${type} with ${n.refs.length} referenced notes`);
  if (!OWN_NOTE_CREDIT.has(type)) return null;
  const key = n.refs[0]!.text;
  const issuer = (f.emitCnpj ?? f.emitCpf ?? '').padStart(14, '0');
  if (key.slice(6, 20) !== issuer) return reject('B25-50', 269, `referenced note of ${key.slice(6, 20)}, issuer ${issuer}`);
  if (key.slice(0, 2) !== f.cUF) return reject('B25-60', 678, `referenced note of cUF ${key.slice(0, 2)}, issuer's cUF ${f.cUF}`);
  return null;
}

/** B25-80 (1001): IBS/CBS only on the items of a credit or debit note, but for the exempt types. */
function reformOnlyRejection(f: NfeFacts, n: Note): Rejection | null {
  const type = textIn(n.ide, f.finNFe === '5' ? 'tpNFCredito' : 'tpNFDebito');
  if ((f.finNFe === '5' ? B25_80_EXEMPT_CREDIT : B25_80_EXEMPT_DEBIT).has(type)) return null;
  for (const i of n.items) {
    const group = NON_REFORM_GROUPS.find((g) => el(i.imposto, g) !== null) ?? (el(i.det, 'impostoDevol') ? 'impostoDevol' : undefined);
    if (group) return reject('B25-80', 1001, `finNFe ${f.finNFe} item ${i.nItem} with ${group}`);
  }
  return null;
}

/** UB106-30 (1133): gTransfCred (credit transfer) only on a debit note. */
function transferRejection(f: NfeFacts, n: Note): Rejection | null {
  if (f.finNFe === '6') return null;
  const item = n.items.find((i) => el(el(i.imposto, 'IBSCBS'), 'gTransfCred') !== null);
  return item ? reject('UB106-30', 1133, `gTransfCred in item ${item.nItem} of a note with finNFe ${f.finNFe}`, item.nItem) : null;
}

/** The first of these rules an NF-e breaks, or null. */
export function adjustmentNoteRejection(f: NfeFacts): Rejection | null {
  if (f.mod !== '55') return null;
  const n = noteOf(f);
  if (f.finNFe === '5') {
    const credit = creditRejection(f, n);
    if (credit) return credit;
  }
  if (f.finNFe === '5' || f.finNFe === '6') {
    const reformOnly = reformOnlyRejection(f, n);
    if (reformOnly) return reformOnly;
  }
  return transferRejection(f, n);
}
