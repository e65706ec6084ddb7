// The "Roles" table of docs/guides/people-and-teams.md is the role matrix of the code, word for word.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROLE_DESCRIPTIONS, ROLE_SCOPES, ROLES, rolesTableMarkdown } from '../../src/infra/identity/roles.js';

const readme = readFileSync(new URL('../../docs/guides/people-and-teams.md', import.meta.url), 'utf8');

describe('The Roles table of docs/guides/people-and-teams.md', () => {
  it('is the table generated from ROLE_DESCRIPTIONS and ROLE_SCOPES', () => {
    const section = readme.slice(readme.indexOf('## Roles'));
    const table = section.split('\n').filter((l) => l.startsWith('|')).slice(0, ROLES.length + 2).join('\n');
    expect(table, 'regenerate with rolesTableMarkdown() (src/infra/identity/roles.ts)').toBe(rolesTableMarkdown());
  });

  it('the generated table carries every role, its words and its scopes', () => {
    const table = rolesTableMarkdown();
    for (const r of ROLES) {
      const row = table.split('\n').find((l) => l.startsWith(`| \`${r}\` |`));
      expect(row, r).toContain(ROLE_DESCRIPTIONS[r]);
      for (const s of ROLE_SCOPES[r]) expect(row, `${r} ${s}`).toContain(`\`${s}\``);
    }
  });
});
