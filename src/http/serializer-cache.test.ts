import { describe, expect, it } from 'vitest';
import { cachedSerializerFactory } from './serializer-cache.js';

const schema = { type: 'object', properties: { id: { type: 'string' }, amount: { type: 'number' } } };
const route = (s: unknown, httpStatus = '200') => ({ method: 'GET', url: '/x', httpStatus, schema: s });

describe('response serializers kept once per process', () => {
  it('a second app gets the same serializer for the same schema, and it writes only the schema\'s fields', () => {
    const first = cachedSerializerFactory()({}, {})(route(schema));
    const second = cachedSerializerFactory()({}, {})(route(structuredClone(schema)));
    expect(second).toBe(first);
    expect(first({ id: 'a', amount: 1.5, secret: 'x' })).toBe('{"id":"a","amount":1.5}');
  });

  it('another schema, status or set of shared schemas gets its own serializer', () => {
    const compile = cachedSerializerFactory()({}, {});
    const base = compile(route(schema));
    expect(compile(route({ type: 'object', properties: { id: { type: 'string' } } }))).not.toBe(base);
    expect(compile(route(schema, '201'))).not.toBe(base);
    const withShared = cachedSerializerFactory()({ 'Err#': { $id: 'Err#', type: 'object' } }, {})(route(schema));
    expect(withShared).not.toBe(base);
    expect(withShared({ id: 'b', amount: 2 })).toBe('{"id":"b","amount":2}');
  });
});
