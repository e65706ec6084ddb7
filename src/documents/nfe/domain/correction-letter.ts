import { CCE_MAX_SEQUENCE } from './cancel-window.js';

// Carta de Correção (110110): what the gateway decides before a letter is signed. The conditions of
// use (xCondUso, e110110) forbid correcting (I) the values that determine the tax - base, rate,
// price, quantity, the operation's value; (II) registration data that change the sender or the
// recipient; (III) the date of issue or of departure (Convênio S/N de 1970, art. 7º §1º-A).

export interface ForbiddenChange {
  rule: 'values' | 'parties' | 'dates';
  reason: string;
}

const VALUES = /\b(valor(es)?|pre[cç]o|quantidade|al[ií]quota|base de c[aá]lculo|desconto|frete|total)\b[^.;]*?(\bR\$\s*)?\d/i;
const MONEY = /R\$\s*\d/i;
const TAX_ID = /\b(\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}|\d{3}\.?\d{3}\.?\d{3}-?\d{2})\b/;
const PARTY = /\b(destinat[aá]rio|remetente|emitente|cnpj|cpf)\b/i;
const DATE_FIELD = /\bdata (de |da )?(emiss[aã]o|sa[ií]da)\b/i;

/**
 * The change the rule can tell a CC-e may not make, or null. Only clear cases are refused (a
 * number with a value word, an amount in reais, another CNPJ/CPF for a party, the date of issue or
 * departure): the authority does not read the text, so the gateway is the one that can say it.
 */
export function forbiddenCorrection(text: string): ForbiddenChange | null {
  if (MONEY.test(text) || VALUES.test(text)) {
    return { rule: 'values', reason: 'it changes values that determine the tax (base, rate, price, quantity or the operation\'s value)' };
  }
  if (TAX_ID.test(text) && PARTY.test(text)) {
    return { rule: 'parties', reason: "it changes a party's CNPJ/CPF, which changes the sender or the recipient" };
  }
  if (DATE_FIELD.test(text)) return { rule: 'dates', reason: 'it changes the date of issue or of departure' };
  return null;
}

/** What the choice of the next letter reads of a note's letters (the stored NoteCorrections fits). */
export interface LettersSoFar {
  current: { text: string } | null;
  letters: ReadonlyArray<{ sequence: number; status: 'pending' | 'registered' | 'rejected' }>;
}

/** The letter to send: the next free sequence and the consolidated text (each CC-e replaces the previous one). */
export function nextCorrection(
  corrections: LettersSoFar | null | undefined,
  text: string,
  mode: 'append' | 'replace',
): { sequence: number; text: string } | { problem: string } {
  const letters = corrections?.letters ?? [];
  if (letters.some((l) => l.status === 'pending')) return { problem: 'a correction letter of this NF-e is still being sent; wait for it' };
  const used = letters.filter((l) => l.status !== 'rejected').map((l) => l.sequence);
  const sequence = used.length === 0 ? 1 : Math.max(...used) + 1;
  if (sequence > CCE_MAX_SEQUENCE) return { problem: `an NF-e takes at most ${CCE_MAX_SEQUENCE} correction letters (nSeqEvento 1-20)` };
  const current = corrections?.current?.text;
  // NT 2011/004: the letter in force is the last one, so it repeats every earlier correction.
  const consolidated = mode === 'append' && current ? `${current}; ${text}` : text;
  return { sequence, text: consolidated };
}
