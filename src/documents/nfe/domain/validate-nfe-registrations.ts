import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { stateRegistrationProblem } from '../../../fiscal/layout/state-registration.js';

// The recipient's state registration against its state's check-digit algorithm
// (docs/fiscal/state-registration.md). Only a contribuinte (indIEDest 1) gives an IE here: an
// exempt (2) or non-taxpayer (9) recipient gives none (MOC E17-30, 791; E16a note 3), and ISENTO is
// not a value of dest/IE (TIeDest holds digits only).

/** MOC E17-50 (210, IE do destinatário inválida): size, composition and check digits for the UF. */
export function checkRecipientIe(errors: Errors, uf: string, ie: string): void {
  const problem = stateRegistrationProblem(uf, ie);
  if (problem) fail(errors, 'destinatario.ie', `${problem}: it is not a valid ${uf} state registration (SEFAZ rejects it with 210, IE do destinatário inválida)`, 'E17-50');
}
