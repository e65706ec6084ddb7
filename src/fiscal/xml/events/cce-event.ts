// Carta de Correção, event 110110 (docs/fiscal/events.md, docs/fiscal/nfe-model-55.md#cc-e; e110110_v1.00.xsd, leiauteCCe_v1.00.xsd):
// NF-e (model 55) only - an NFC-e is refused with 784. Sent by the issuer to its UF's event
// reception, nSeqEvento 1-20 (each CC-e replaces the previous one: send the consolidated text),
// within 720 hours of the authorization (NT 2011/004).
import { leaf } from '../xml-text.js';
import type { SigningKey } from '../signature/sign.js';
import { eventHeadProblems, signEvent, type EventHead, type SignedEvent } from './event-envelope.js';
import { ACCESS_KEY, check, EventInputError, normalizeJustification, UF_CODES, type EventFieldError } from './event-input.js';

/** descEvento (e110110 enumeration; the unaccented spelling, as every other event's). */
export const CCE_DESC_EVENTO = 'Carta de Correcao';

/**
 * xCondUso: the fixed text of the conditions of use, copied verbatim from the two values the
 * e110110_v1.00.xsd enumeration accepts (accented and unaccented); events.test.ts reads them back
 * from the XSD. The unaccented one is written: it is plain ASCII, like the rest of the event.
 */
export const CCE_CONDITIONS_OF_USE = {
  accented:
    'A Carta de Correção é disciplinada pelo § 1º-A do art. 7º do Convênio S/N, de 15 de dezembro de 1970 e pode ser utilizada para regularização de erro ocorrido na emissão de documento fiscal, desde que o erro não esteja relacionado com: I - as variáveis que determinam o valor do imposto tais como: base de cálculo, alíquota, diferença de preço, quantidade, valor da operação ou da prestação; II - a correção de dados cadastrais que implique mudança do remetente ou do destinatário; III - a data de emissão ou de saída.',
  plain:
    'A Carta de Correcao e disciplinada pelo paragrafo 1o-A do art. 7o do Convenio S/N, de 15 de dezembro de 1970 e pode ser utilizada para regularizacao de erro ocorrido na emissao de documento fiscal, desde que o erro nao esteja relacionado com: I - as variaveis que determinam o valor do imposto tais como: base de calculo, aliquota, diferenca de preco, quantidade, valor da operacao ou da prestacao; II - a correcao de dados cadastrais que implique mudanca do remetente ou do destinatario; III - a data de emissao ou de saida.',
} as const;

/** cOrgao: the issuer's UF; author: the issuer; nSeqEvento: 1 for the first CC-e, then the next one (up to 20). */
export interface CorrectionLetterInput extends EventHead {
  /** The correction, 15-1000 characters (blanks collapsed as for xJust). */
  xCorrecao: string;
}

/** e110110 xCorrecao: 15-1000 characters of U+0020-U+00FF, no blank at either end. */
export function correctionTextProblem(text: string): EventFieldError | null {
  const value = normalizeJustification(text);
  if (value.length < 15 || value.length > 1000) return { field: 'xCorrecao', message: 'must have 15 to 1000 characters' };
  if (/[^\u0020-\u00ff]/.test(value)) return { field: 'xCorrecao', message: 'has characters outside Latin-1, which the layout does not accept' };
  return null;
}

export function correctionLetterProblems(input: CorrectionLetterInput): EventFieldError[] {
  const errors: EventFieldError[] = [];
  check(errors, UF_CODES.has(input.cOrgao), 'cOrgao', 'must be the IBGE code of the issuer\'s state');
  errors.push(...eventHeadProblems(input));
  // Access key positions 21-22 hold the model (docs/fiscal/access-key.md): CC-e exists for model 55 only (784).
  if (ACCESS_KEY.test(input.chNFe)) check(errors, input.chNFe.slice(20, 22) === '55', 'chNFe', 'must be the key of an NF-e (model 55): an NFC-e has no CC-e');
  const text = correctionTextProblem(input.xCorrecao);
  if (text) errors.push(text);
  return errors;
}

export function buildCorrectionLetterEvent(input: CorrectionLetterInput, key: SigningKey): SignedEvent {
  const errors = correctionLetterProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const det =
    leaf('descEvento', CCE_DESC_EVENTO) + leaf('xCorrecao', normalizeJustification(input.xCorrecao)) + leaf('xCondUso', CCE_CONDITIONS_OF_USE.plain);
  return signEvent(input, '110110', det, key);
}
