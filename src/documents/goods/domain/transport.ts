import { Type, type Static } from 'typebox';
import type { TranspModel } from '../../../fiscal/xml/nfe/model-55.js';
import { checkPattern, checkText, fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { ufCode } from '../../../fiscal/layout/ibge.js';
import { isStateRegistrationValid } from '../../../fiscal/layout/state-registration.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import { cleanTaxId, isValidCnpj, isValidCpf } from '../../../kernel/tax-id.js';

// The freight mode and the carrier (MOC group X, transp/modFrete and transporta), which both goods
// models write the same way: the NF-e's `transporte` and the NFC-e's home delivery. The rules are in
// docs/fiscal/exports-and-delivery.md.

const keysOf = <T extends object>(o: T) => Object.keys(o) as Array<keyof T & string>;

/** modFrete (MOC X02): 0 sender (CIF), 1 recipient (FOB), 2 third party, 3 own by sender, 4 own by recipient, 9 no freight. */
export const MODALIDADES_FRETE = { emitente: 0, destinatario: 1, terceiros: 2, proprio_emitente: 3, proprio_destinatario: 4, sem_frete: 9 } as const;
export type FreightMode = keyof typeof MODALIDADES_FRETE;

export const FreightModeSchema = Type.Enum(keysOf(MODALIDADES_FRETE), {
  description: 'modFrete: who hires the freight: emitente (0, CIF), destinatario (1, FOB), terceiros (2), proprio_emitente (3), proprio_destinatario (4), sem_frete (9).',
});

export const CarrierSchema = Type.Object(
  {
    cnpj: Type.Optional(Type.String({ description: 'CNPJ of the carrier (MOC X04-20: check digits, 542).' })),
    cpf: Type.Optional(Type.String({ description: 'CPF of the carrier (MOC X05-10: check digits, 543).' })),
    name: Type.Optional(Type.String({ description: 'xNome (2-60).' })),
    ie: Type.Optional(Type.String({ description: 'State registration, 2-14 digits or ISENTO; needs uf (MOC X07-10, 559).' })),
    address: Type.Optional(Type.String({ description: 'xEnder, full address in one line (1-60).' })),
    city: Type.Optional(Type.String({ description: 'xMun (1-60).' })),
    uf: Type.Optional(Type.String({ description: 'Two-letter state of the carrier.' })),
  },
  { additionalProperties: false, description: 'transporta: the carrier.' },
);
export type Carrier = Static<typeof CarrierSchema>;

/** The carrier's own fields (MOC X04-X10): valid CNPJ/CPF (542/543), IE with its UF (559). */
export function checkCarrier(errors: Errors, at: string, c: Carrier): void {
  if (c.cnpj !== undefined && c.cpf !== undefined) fail(errors, at, 'give cnpj or cpf, not both');
  if (c.cnpj !== undefined && !isValidCnpj(c.cnpj)) fail(errors, `${at}.cnpj`, 'is not a valid CNPJ (14 characters, check digits must match)', 'X04-20');
  if (c.cpf !== undefined && !isValidCpf(c.cpf)) fail(errors, `${at}.cpf`, 'is not a valid CPF (11 digits, check digits must match)', 'X05-10');
  checkText(errors, `${at}.name`, c.name, 2, 60, false);
  checkPattern(errors, `${at}.ie`, c.ie, /^(ISENTO|[0-9]{2,14})$/, 'must be 2-14 digits or ISENTO', false);
  checkText(errors, `${at}.address`, c.address, 1, 60, false);
  checkText(errors, `${at}.city`, c.city, 1, 60, false);
  if (c.uf !== undefined && !ufCode(c.uf)) fail(errors, `${at}.uf`, 'must be a two-letter Brazilian state');
  // MOC X07-20 (544): an IE other than ISENTO is valid for the carrier's state.
  else if (typeof c.ie === 'string' && /^[0-9]{2,14}$/.test(c.ie) && c.uf !== undefined && !isStateRegistrationValid(c.uf, c.ie)) {
    fail(errors, `${at}.ie`, `is not a valid ${c.uf} state registration (check digits; MOC X07-20, 544): give the carrier's IE as registered, or ISENTO`, 'X07-20');
  }
  // MOC X07-10 (559): the carrier's IE is read against its state, so the state comes with it.
  if (c.ie !== undefined && c.uf === undefined) fail(errors, `${at}.uf`, 'is required when the carrier\'s ie is given (MOC X07-10, 559)', 'X07-10');
}

export function freightModeOf(errors: Errors, at: string, value: unknown): (typeof MODALIDADES_FRETE)[FreightMode] | undefined {
  if (typeof value === 'string' && Object.hasOwn(MODALIDADES_FRETE, value)) return MODALIDADES_FRETE[value as FreightMode];
  fail(errors, at, `must be one of ${Object.keys(MODALIDADES_FRETE).join(', ')}`);
  return undefined;
}

/** transporta as the layout writes it. */
export function carrierModel(c: Carrier): NonNullable<TranspModel['transporta']> {
  const carrier: NonNullable<TranspModel['transporta']> = {};
  if (c.cnpj !== undefined) carrier.CNPJ = cleanTaxId(c.cnpj);
  if (c.cpf !== undefined) carrier.CPF = cleanTaxId(c.cpf);
  if (c.name) carrier.xNome = layoutText(c.name);
  if (c.ie) carrier.IE = c.ie;
  if (c.address) carrier.xEnder = layoutText(c.address);
  if (c.city) carrier.xMun = layoutText(c.city);
  if (c.uf) carrier.UF = c.uf;
  return carrier;
}
