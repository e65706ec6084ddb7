/**
 * Our route schemas are JSON Schema (TypeBox); OpenAPI 3.0 speaks an older dialect. Rewrites the
 * generated document so independent validators accept it: `examples` -> `example`, `const` ->
 * one-value `enum`, `{type: 'null'}` branches -> `nullable: true`.
 */
export function toOpenApi30<T>(doc: T): T {
  return walk(doc) as T;
}

function walk(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(walk);
  if (!node || typeof node !== 'object') return node;
  const src = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === '$id' || k === '$schema') continue;
    if (k === 'examples' && Array.isArray(v) && isSchemaLike(src)) {
      if (v.length > 0 && !('example' in src)) out.example = v[0];
      continue;
    }
    if (k === 'const' && isSchemaLike(src)) {
      out.enum = [v];
      if (!('type' in src)) out.type = typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';
      continue;
    }
    out[k] = walk(v);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = out[key];
    if (!Array.isArray(branches)) continue;
    const rest = branches.filter((b) => !(b && typeof b === 'object' && (b as { type?: unknown }).type === 'null'));
    if (rest.length === branches.length) continue;
    if (rest.length === 1 && typeof rest[0] === 'object') {
      delete out[key];
      Object.assign(out, rest[0] as object, { nullable: true });
    } else {
      out[key] = rest;
      out.nullable = true;
    }
  }
  return out;
}

// Parameters and media types also carry `examples` (a map, legitimately); only rewrite schemas.
function isSchemaLike(o: Record<string, unknown>): boolean {
  return 'type' in o || 'const' in o || 'enum' in o || 'format' in o || 'properties' in o || 'anyOf' in o || 'items' in o;
}
