import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.app.close());

/** Every `description` string in the document with the JSON path where it sits. */
function descriptions(node: unknown, path = '$', out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(node)) node.forEach((v, i) => descriptions(v, `${path}[${i}]`, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'description' && typeof v === 'string') out.push([`${path}.${k}`, v]);
      else descriptions(v, `${path}.${k}`, out);
    }
  }
  return out;
}

/** What swagger-ui's markdown would take for an HTML tag and swallow: `<name>`, `</name>`, `<name attr>` outside code spans. */
function rawTags(markdown: string): string[] {
  const outsideCode = markdown.replace(/(`+)[\s\S]*?\1/g, '');
  return outsideCode.match(/<\/?[A-Za-z][\w.:-]*(\s[^<>]*)?\/?>/g) ?? [];
}

describe('OpenAPI descriptions', () => {
  it('rawTags finds tags outside code spans only', () => {
    expect(rawTags('reject:<cStat>, deny')).toEqual(['<cStat>']);
    expect(rawTags('`reject:<cStat>`, `Bearer <key>`, N <= 10, &lt;cStat&gt;')).toEqual([]);
  });

  it('hold no XML or HTML tag names that the markdown renderer of /docs would swallow', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const all = descriptions(res.json());
    expect(all.length).toBeGreaterThan(50);
    const offending = all.flatMap(([path, text]) => rawTags(text).map((tag) => `${path}: ${tag}`));
    expect(offending).toEqual([]);
  });
});
