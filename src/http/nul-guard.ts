import type { FastifyRequest } from 'fastify';
import { ApiError } from '../kernel/errors.js';

/** The path (`items[0].description`) of the first string holding U+0000, without recursion. */
export function nulField(value: unknown, root: string): string | undefined {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return at;
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, `${at}[${i}]`]));
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return at ? `${at}.${k}` : k;
        stack.push([x, at ? `${at}.${k}` : k]);
      }
    }
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL in an id, a filter or a body field would reach the
 * database as an error (a 500, or a stuck PGlite). It is never meaningful here: an id with it is
 * unknown (404), a query or body field with it is invalid (422).
 */
export async function refuseNul(request: FastifyRequest): Promise<void> {
  if (nulField(request.params, '') !== undefined) throw new ApiError('not_found', 'No record with this id');
  const field = nulField(request.query, 'query') ?? nulField(request.body, '');
  if (field !== undefined) {
    throw new ApiError('validation_error', `${field || 'body'} contains the NUL character (U+0000)`, [{ field: field || 'body', message: 'contains the NUL character (U+0000)' }]);
  }
}
