// Recipient manifestation (docs/fiscal/nfe-model-55.md#recipient-manifestation; leiauteConfRecebto_v1.00.xsd, e210200/e210210/e210220/e210240):
// sent by the recipient (dest CNPJ/CPF of the NF-e) to the Ambiente Nacional, cOrgao 91.
//   210200 Confirmacao da Operacao    210210 Ciencia da Operacao
//   210220 Desconhecimento da Operacao (xJust optional)    210240 Operacao nao Realizada (xJust required)
import { leaf } from '../xml-text.js';
import type { SigningKey } from '../signature/sign.js';
import { eventHeadProblems, signEvent, type EventHead, type SignedEvent } from './event-envelope.js';
import { EventInputError, justificationProblem, normalizeJustification, type EventFieldError } from './event-input.js';

/** TCOrgaoIBGE 91: the Ambiente Nacional, which receives the recipient's manifestation (docs/fiscal/codes-and-tables.md). */
export const NATIONAL_ENVIRONMENT_CORGAO = '91';

export type ManifestationType = '210200' | '210210' | '210220' | '210240';

/** descEvento of each type: the single enumeration value of its e2102xx_v1.00.xsd. */
export const MANIFESTATION_DESC: Readonly<Record<ManifestationType, string>> = {
  '210200': 'Confirmacao da Operacao',
  '210210': 'Ciencia da Operacao',
  '210220': 'Desconhecimento da Operacao',
  '210240': 'Operacao nao Realizada',
};

/** The conclusive manifestations: each may be registered at most twice per note (docs/fiscal/nfe-model-55.md#recipient-manifestation). */
export const CONCLUSIVE_MANIFESTATIONS: ReadonlySet<string> = new Set(['210200', '210220', '210240']);

/** cOrgao is always 91; author = the recipient named in dest. */
export interface ManifestationInput extends Omit<EventHead, 'cOrgao'> {
  tpEvento: ManifestationType;
  /** Required for 210240, optional for 210220, not written for 210200/210210 (15-255 characters). */
  xJust?: string;
}

export function manifestationProblems(input: ManifestationInput): EventFieldError[] {
  const errors = eventHeadProblems({ ...input, cOrgao: NATIONAL_ENVIRONMENT_CORGAO });
  if (!(input.tpEvento in MANIFESTATION_DESC)) errors.push({ field: 'tpEvento', message: 'must be 210200, 210210, 210220 or 210240' });
  const takesJust = input.tpEvento === '210220' || input.tpEvento === '210240';
  if (input.tpEvento === '210240' && input.xJust === undefined) errors.push({ field: 'xJust', message: 'is required for 210240 (operation not performed)' });
  if (input.xJust !== undefined) {
    if (!takesJust) errors.push({ field: 'xJust', message: 'is accepted only by 210220 and 210240' });
    else {
      const just = justificationProblem(input.xJust);
      if (just) errors.push(just);
    }
  }
  return errors;
}

export function buildManifestationEvent(input: ManifestationInput, key: SigningKey): SignedEvent {
  const errors = manifestationProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const just = input.xJust === undefined ? '' : leaf('xJust', normalizeJustification(input.xJust));
  const det = leaf('descEvento', MANIFESTATION_DESC[input.tpEvento]) + just;
  return signEvent({ ...input, cOrgao: NATIONAL_ENVIRONMENT_CORGAO }, input.tpEvento, det, key);
}
