// docs/guides/api.md#contract-versioning: a public changelog of the API, and every deprecated operation of the app both marked
// in the OpenAPI document and listed in CHANGELOG.md with its dates.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';

const changelog = readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t.runtime.close());

describe('the API changelog', () => {
  it('is served at /changelog.md without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/changelog.md' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.body).toBe(changelog);
  });

  it('lists exactly the operations the OpenAPI document marks deprecated, with their sunset', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, { deprecated?: boolean; description?: string }>> };
    const marked = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).filter(([, op]) => op.deprecated).map(([method, op]) => ({ op: `${method.toUpperCase()} ${path}`, sunset: /stops answering on (\d{4}-\d{2}-\d{2})/.exec(op.description ?? '')?.[1] })));
    const table = changelog.slice(changelog.indexOf('## Deprecated operations'), changelog.indexOf('\n## ', changelog.indexOf('## Deprecated operations') + 5));
    const listed = [...table.matchAll(/^\| `([A-Z]+ [^`]+)` \| (\d{4}-\d{2}-\d{2}) \| (\d{4}-\d{2}-\d{2}) \|/gm)].map((m) => ({ op: m[1]!.replace(/:(\w+)/g, '{$1}'), sunset: m[3] }));
    expect(listed.sort((a, b) => a.op.localeCompare(b.op))).toEqual(marked.sort((a, b) => a.op.localeCompare(b.op)));
    if (marked.length === 0) expect(table).toContain('None today.');
  });
});
