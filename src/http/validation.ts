import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../kernel/errors.js';
import type { ApiLanguage } from './accept-language.js';
import { SCHEMA_MESSAGES_PT_BR as PT, schemaKeywordPtBr } from './i18n/validation-messages.js';
import { closestWord } from './closest-word.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// Bodies are validated strictly: "10" is not a number, unknown fields are refused (a typo must not
// be silently ignored), and every problem is reported at once. Query strings and path parameters
// arrive as text, so they are coerced.
// `verbose` keeps the value sent and the schema beside each error, so a typo can be answered with the word meant.
const bodyAjv = addFormats(new Ajv({ allErrors: true, coerceTypes: false, useDefaults: true, removeAdditional: false, strict: false, verbose: true }));
const textAjv = addFormats(new Ajv({ allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: false, strict: false, verbose: true }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const validate: ValidateFunction = ajv.compile(schema as object);
  return (data: unknown) => {
    if (validate(data)) return { value: data };
    const error = new Error('validation failed') as Error & { validation: ErrorObject[]; validationContext: string };
    error.validation = validate.errors ?? [];
    error.validationContext = httpPart ?? 'body';
    return { error };
  };
};

/** `/items/0/ncm` -> `items[0].ncm`, the way a developer writes the path in their own code. */
export function pointerToField(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  return out;
}

/** The allowed value a sent text most likely meant (a typo), if any. */
function suggestion(sent: unknown, allowed: readonly unknown[]): string | undefined {
  return typeof sent === 'string' ? closestWord(sent, allowed.filter((a): a is string => typeof a === 'string')) : undefined;
}

/** " (did you mean "x"?)", in the request's language; nothing without a suggestion. */
function meant(word: string | undefined, pt: boolean): string {
  if (word === undefined) return '';
  return pt ? ` (você quis dizer "${word}"?)` : ` (did you mean "${word}"?)`;
}

/** Turns ajv errors into the details of a validation_error, one per field, in plain words of the request's language. */
export function validationDetails(errors: ErrorObject[], context: string, lang: ApiLanguage = 'en'): ErrorDetail[] {
  const pt = lang === 'pt-BR';
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const e of errors) {
    let field = pointerToField(e.instancePath);
    let message: string;
    switch (e.keyword) {
      case 'required': {
        const missing = String((e.params as { missingProperty: string }).missingProperty);
        field = field ? `${field}.${missing}` : missing;
        message = pt ? PT.required() : 'is required';
        break;
      }
      case 'additionalProperties': {
        const extra = String((e.params as { additionalProperty: string }).additionalProperty);
        field = field ? `${field}.${extra}` : extra;
        const known = Object.keys((e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
        message = (pt ? PT.additionalProperties() : 'is not a known field') + meant(closestWord(extra, known), pt);
        break;
      }
      case 'type':
        // A nullable field's null branch: when the value's other branch says what is wrong, that is the answer.
        if ((e.params as { type: string }).type === 'null' && errors.some((o) => o !== e && o.keyword !== 'anyOf' && o.keyword !== 'oneOf' && o.schemaPath !== e.schemaPath && (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`)))) continue;
        message = pt ? PT.type(String((e.params as { type: string }).type)) : `must be of type ${(e.params as { type: string }).type}`;
        break;
      case 'enum': {
        const allowed = (e.params as { allowedValues: unknown[] }).allowedValues ?? [];
        message = (pt ? PT.oneOf(allowed) : `must be one of: ${allowed.join(', ')}`) + meant(suggestion(e.data, allowed), pt);
        break;
      }
      case 'const': {
        // A union of literals (an event type, a status) fails once per literal: name them all.
        const allowed = errors
          .filter((o) => o.keyword === 'const' && o.instancePath === e.instancePath)
          .map((o) => String((o.params as { allowedValue: unknown }).allowedValue));
        if (pt) message = allowed.length > 1 ? PT.oneOf([...new Set(allowed)]) : PT.const(allowed[0]);
        else message = allowed.length > 1 ? `must be one of: ${[...new Set(allowed)].join(', ')}` : `must be ${allowed[0]}`;
        if (allowed.length > 1) message += meant(suggestion(e.data, allowed), pt);
        break;
      }
      case 'anyOf':
      case 'oneOf':
        // The branch errors that follow say more; keep this one only if nothing else names the field.
        if (errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath) && o.keyword !== e.keyword)) continue;
        message = pt ? PT.noForm() : 'does not match any allowed form';
        break;
      default:
        message = (pt ? schemaKeywordPtBr(e) : undefined) ?? e.message ?? (pt ? 'é inválido' : 'is invalid');
    }
    if (context === 'querystring') field = field ? `query.${field}` : 'query';
    if (context === 'params') field = field ? `path.${field}` : 'path';
    if (context === 'headers') field = field ? `header.${field}` : 'header';
    const key = field + '\u0000' + message;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ field: field || '(body)', message });
  }
  return details;
}
