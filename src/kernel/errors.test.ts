import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './paths.js';
import { ERROR_STATUS } from './errors.js';

describe('error codes', () => {
  it('the API guide (docs/guides/api.md) lists exactly the codes the API answers, each with its status', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'docs/guides/api.md'), 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('| Errors |'));
    expect(line).toBeDefined();
    const listed = Object.fromEntries([...line!.matchAll(/`([a-z_]+)` (\d{3})/g)].map((m) => [m[1], Number(m[2])]));
    expect(listed).toEqual({ ...ERROR_STATUS });
  });
});
