import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, registerJsonBodyParser } from './json-body.js';

describe('JSON body depth, checked before the parse', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonNestsDeeperThan('{"a":[1,{"b":[]}]}', 4)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[1,{"b":[]}]}', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":"[[[[[{{{{{"}', 1)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":"\\"[[[[","b":1}', 1)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":"\\\\","b":[[[]]]}', 3)).toBe(true);
    expect(jsonNestsDeeperThan('['.repeat(101) + ']'.repeat(101), 100)).toBe(true);
    expect(jsonNestsDeeperThan('['.repeat(100) + ']'.repeat(100), 100)).toBe(false);
  });

  it('refuses a body nested 500,000 deep without handing it to JSON.parse, and parses ordinary bodies as before', async () => {
    const app = Fastify();
    registerJsonBodyParser(app);
    app.post('/echo', async (request) => request.body);
    const parse = JSON.parse;
    let parsedLength = 0;
    JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
      parsedLength = Math.max(parsedLength, text.length);
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      const deep = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '['.repeat(500_000) + ']'.repeat(500_000) });
      expect(deep.statusCode).toBe(400);
      expect(parsedLength).toBe(0);
      const ok = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json; charset=utf-8' }, payload: { a: [1, { b: 'x[' }] } });
      expect(ok.json()).toEqual({ a: [1, { b: 'x[' }] });
      const poisoned = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' });
      expect(poisoned.statusCode).toBe(400);
    } finally {
      JSON.parse = parse;
      await app.close();
    }
  });
});
