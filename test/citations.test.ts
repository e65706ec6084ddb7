import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citationProblems, commentsOf, slugOf } from './support/citation-scanner.js';

// Every citation in a comment resolves to a file a reader of the repository has.
const ROOT = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

describe('citations in comments', () => {
  it('in src/, test/, bench/ and scripts/ cite only files of the repository', () => {
    const problems = ['src', 'test', 'bench', 'scripts'].flatMap((d) => sourceFiles(join(ROOT, d)))
      .flatMap((p) => citationProblems(ROOT, relative(ROOT, p), readFileSync(p, 'utf8')))
      .map((x) => `${x.file}:${x.line} ${x.citation}: ${x.problem}`);
    expect(problems).toEqual([]);
    // Reads every source file of the repository: 10 s on a quiet 2-core box, over 30 s beside a suite run.
  }, 120_000);
});

describe('the scanner', () => {
  const files: Record<string, string> = { 'docs/fiscal/cstat.md': '# cStat codes\n\n## Newer codes\n', 'assets/fiscal/SOURCES.md': '# Sources\n' };
  const read = (p: string) => files[p] ?? null;
  const scan = (text: string) => citationProblems('/nowhere', 'src/x.ts', text, read).map((p) => `${p.line} ${p.citation}: ${p.problem}`);

  it('reads comments only, never strings', () => {
    const text = "// one (FACTS 7)\nconst s = 'issue 12 FACTS 7 docs/none.md';\n/* two\n * issue 12 */\nconst t = `SPEC`; // three\n";
    expect(commentsOf('x.ts', text).map((c) => c.line)).toEqual([1, 3, 5]);
  });

  it('refuses citations of documents outside the repository', () => {
    expect(scan('// taxes (FACTS 12), cancel window (FACTS section 5)\n')).toEqual([
      '1 FACTS: cites FACTS (outside the repository): cite the docs/fiscal page',
      '1 FACTS: cites FACTS (outside the repository): cite the docs/fiscal page',
    ]);
    expect(scan('/** DESIGN 4 "Numbering" and DESIGN.md §2 */\nconst a = 1;\n')).toHaveLength(2);
    expect(scan('// limits (SPEC 8), and SPEC.md\n')).toHaveLength(2);
    expect(scan('/*\n * Issue 31 item 2: words.\n * as (issue 17) said\n */\n').map((s) => s.slice(0, 10))).toEqual(['2 Issue 31', '3 issue 17']);
  });

  it('refuses a path that is not in the repository, and an anchor its page lacks', () => {
    expect(scan('// docs/fiscal/cstat.md and docs/fiscal/cstat.md#newer-codes, assets/fiscal/SOURCES.md.\n')).toEqual([]);
    expect(scan('// see docs/fiscal/nowhere.md, docs/fiscal/cstat.md#old-codes, assets/none/x.csv\n')).toEqual([
      '1 docs/fiscal/nowhere.md: docs/fiscal/nowhere.md does not exist',
      '1 docs/fiscal/cstat.md#old-codes: docs/fiscal/cstat.md has no heading #old-codes',
      '1 assets/none/x.csv: assets/none/x.csv does not exist',
    ]);
  });

  it('passes what a comment may say', () => {
    expect(scan('// MOC 7.0 §5.4, NT 2019.001 B03-10: cNF != nNF; FACTS_LIST is a name; the spec-shaped body\n')).toEqual([]);
  });

  it('builds anchors as GitHub does', () => {
    expect(slugOf('Access key (chave de acesso), 44 positions')).toBe('access-key-chave-de-acesso-44-positions');
    expect(slugOf('CC-e')).toBe('cc-e');
  });
});
