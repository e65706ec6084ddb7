import { Type, type TSchema, type TSchemaOptions } from 'typebox';

/** docs/decisions.md#api-conventions lists: `?limit=` 1-100 (default 20) and `?starting_after=<id>`. */
export const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100)' })),
    starting_after: Type.Optional(Type.String({ maxLength: 64, description: 'Id of the last item of the previous page' })),
  },
  { additionalProperties: false },
);

export function ListOf<T extends TSchema>(item: T, title: string) {
  return Type.Object(
    { data: Type.Array(item), has_more: Type.Boolean({ description: 'Whether another page follows' }) },
    { title },
  );
}

/**
 * One of these strings, as `anyOf` of `const`s. Type.Union over a mapped array types its values as
 * `never`; Unsafe gives them their union type and leaves the schema as it is.
 */
export function StringLiterals<const T extends readonly string[]>(values: T, options?: TSchemaOptions) {
  return Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v)), options));
}

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds', examples: ['2026-11-21T13:05:09.123Z'] });
