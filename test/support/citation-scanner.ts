import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// The comments of a source file, and what they cite: a citation must resolve to a file of the
// repository (the fiscal pages, the decisions page, the guides, the assets), never to a document
// a reader does not have (the team's fact sheet, design notes, product spec or issue tracker).

export interface Comment { line: number; text: string }
export interface CitationProblem { file: string; line: number; citation: string; problem: string }

/** Every comment of a TypeScript/TSX text, with the line it starts on (the parser finds them, so strings never count). */
export function commentsOf(fileName: string, text: string): Comment[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Map<number, Comment>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (!seen.has(r.pos)) seen.set(r.pos, { line: sf.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    node.getChildren(sf).forEach(visit);
  };
  visit(sf);
  return [...seen.values()].sort((a, b) => a.line - b.line);
}

/** Citations of documents outside the repository. */
const FORBIDDEN: { re: RegExp; problem: string }[] = [
  { re: /\bFACTS(?:\.md)?\b(?!_)/g, problem: 'cites FACTS (outside the repository): cite the docs/fiscal page' },
  { re: /\bDESIGN(?:\.md\b|\s*§?\s*\d)/g, problem: 'cites DESIGN (outside the repository): cite docs/decisions.md' },
  { re: /\bSPEC(?:\.md)?\b(?![\w-])/g, problem: 'cites SPEC (outside the repository): cite the guide (docs/guides/*.md)' },
  { re: /\b[Ii]ssues?\s+#?\d+/g, problem: 'cites an issue of the tracker: say what the code does, or cite the doc that states it' },
];

/** Pages under docs/ (optionally with an #anchor) and files under assets/ that a comment names. */
const PATH = /(?<![\w/.-])((?:docs\/[\w./-]*\.md)|(?:assets\/[\w./-]*[\w/]))(#[\w-]+)?/g;

/** GitHub's anchor of a Markdown heading. */
export function slugOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (m) out.add(slugOf(m[1]!));
  }
  return out;
}

/** What is wrong with the citations in the comments of one file (`root` = the repository). */
export function citationProblems(root: string, file: string, text: string, read: (p: string) => string | null = defaultRead(root)): CitationProblem[] {
  const problems: CitationProblem[] = [];
  for (const c of commentsOf(file, text)) {
    c.text.split('\n').forEach((lineText, i) => {
      const line = c.line + i;
      for (const { re, problem } of FORBIDDEN) {
        for (const m of lineText.matchAll(re)) problems.push({ file, line, citation: m[0], problem });
      }
      for (const m of lineText.matchAll(PATH)) {
        const path = m[1]!.replace(/\.$/, '');
        const anchor = m[2]?.slice(1);
        const body = read(path);
        if (body === null) problems.push({ file, line, citation: m[0], problem: `${path} does not exist` });
        else if (anchor && path.endsWith('.md') && !anchorsOf(body).has(anchor)) {
          problems.push({ file, line, citation: m[0], problem: `${path} has no heading #${anchor}` });
        }
      }
    });
  }
  return problems;
}

function defaultRead(root: string): (p: string) => string | null {
  return (p) => {
    const full = join(root, p);
    if (!existsSync(full)) return null;
    return p.endsWith('.md') ? readFileSync(full, 'utf8') : '';
  };
}
