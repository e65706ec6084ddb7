import type { ErrorObject } from 'ajv';

// What a schema keyword the request failed says in Brazilian Portuguese, from the
// keyword's parameters, not from ajv's English text. src/http/validation.ts picks it for a pt-BR
// request; the English sentences stay as they were.

type Params = Record<string, unknown>;

const plural = (n: unknown, one: string, many: string) => `${String(n)} ${Number(n) === 1 ? one : many}`;

const COMPARISON: Record<string, string> = { '<=': 'menor ou igual a', '>=': 'maior ou igual a', '<': 'menor que', '>': 'maior que' };

const TYPE_NAMES: Record<string, string> = {
  string: 'texto (string)', number: 'número (number)', integer: 'inteiro (integer)', boolean: 'booleano (boolean)',
  object: 'objeto (object)', array: 'lista (array)', null: 'nulo (null)',
};

export const SCHEMA_MESSAGES_PT_BR = {
  required: () => 'é obrigatório',
  additionalProperties: () => 'não é um campo conhecido',
  type: (type: string) => `deve ser do tipo ${type.split(',').map((t) => TYPE_NAMES[t] ?? t).join(' ou ')}`,
  oneOf: (allowed: readonly unknown[]) => `deve ser um de: ${allowed.join(', ')}`,
  const: (allowed: unknown) => `deve ser ${String(allowed)}`,
  noForm: () => 'não corresponde a nenhuma das formas permitidas',
} as const;

/** The keywords ajv reports beyond those validation.ts words itself. */
const BY_KEYWORD: Record<string, (p: Params) => string> = {
  pattern: (p) => `deve seguir o padrão "${String(p.pattern)}"`,
  format: (p) => `deve estar no formato "${String(p.format)}"`,
  minimum: (p) => `deve ser ${COMPARISON[String(p.comparison)] ?? String(p.comparison)} ${String(p.limit)}`,
  maximum: (p) => `deve ser ${COMPARISON[String(p.comparison)] ?? String(p.comparison)} ${String(p.limit)}`,
  exclusiveMinimum: (p) => `deve ser ${COMPARISON[String(p.comparison)] ?? String(p.comparison)} ${String(p.limit)}`,
  exclusiveMaximum: (p) => `deve ser ${COMPARISON[String(p.comparison)] ?? String(p.comparison)} ${String(p.limit)}`,
  minLength: (p) => `deve ter no mínimo ${plural(p.limit, 'caractere', 'caracteres')}`,
  maxLength: (p) => `deve ter no máximo ${plural(p.limit, 'caractere', 'caracteres')}`,
  minItems: (p) => `deve ter no mínimo ${plural(p.limit, 'item', 'itens')}`,
  maxItems: (p) => `deve ter no máximo ${plural(p.limit, 'item', 'itens')}`,
  minProperties: (p) => `deve ter no mínimo ${plural(p.limit, 'campo', 'campos')}`,
  maxProperties: (p) => `deve ter no máximo ${plural(p.limit, 'campo', 'campos')}`,
  multipleOf: (p) => `deve ser múltiplo de ${String(p.multipleOf)}`,
  uniqueItems: (p) => `não pode ter itens repetidos (os itens ${String(p.j)} e ${String(p.i)} são iguais)`,
  not: () => 'não pode ter esta forma',
  if: (p) => `deve atender ao esquema "${String(p.failingKeyword)}"`,
  dependentRequired: (p) => `deve ter o campo ${String(p.missingProperty)} quando ${String(p.property)} é enviado`,
  dependencies: (p) => `deve ter o campo ${String(p.missingProperty)} quando ${String(p.property)} é enviado`,
  contains: () => 'não contém nenhum item válido',
  propertyNames: (p) => `tem um nome de campo inválido (${String(p.propertyName)})`,
};

/** A keyword's message in pt-BR; undefined for a keyword the catalog lacks (the caller keeps ajv's English). */
export function schemaKeywordPtBr(e: ErrorObject): string | undefined {
  return BY_KEYWORD[e.keyword]?.(e.params as Params);
}

/** The keywords the catalog words, for the test that every common keyword is covered. */
export const SCHEMA_KEYWORDS_PT_BR: readonly string[] = [...Object.keys(BY_KEYWORD), 'required', 'additionalProperties', 'type', 'enum', 'const', 'anyOf', 'oneOf'];
