// The English sentences the request validators write, read from their source with the TypeScript
// parser: every `fail(errors, field, message)` and `checkPattern(..., message)` call
// and every `{ field, message }` literal of the domain folders. A template literal becomes its template with `{}` per value; a
// `cond ? 'a' : 'b'` (also inside a template) gives both sentences. A message built elsewhere (a
// variable, a call) is counted apart as `dynamic`: its parts are sentences of their own files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';

export const MESSAGE_FOLDERS = [
  'src/documents/goods/domain',
  'src/documents/nfce/domain',
  'src/documents/nfe/domain',
  'src/documents/nfse/domain',
  'src/fiscal/layout',
];

/** The argument that holds the sentence, by the name of the function called. */
const MESSAGE_ARGUMENT: Record<string, number> = { fail: 2, checkPattern: 4 };
/** Local helpers of one file (`add(field, message, rule)`). */
const LOCAL_ARGUMENT: Record<string, Record<string, number>> = {
  'src/documents/nfce/domain/offline-nfce.ts': { add: 1 },
  'src/documents/nfce/domain/offline-ide-rules.ts': { add: 2 },
};
/** Object properties that hold a sentence beside the `message` of a `{ field, message }`. */
const MESSAGE_PROPERTIES = new Set(['cfopMessage']);

export interface FoundMessage {
  template: string;
  file: string;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

/** Every sentence an expression can be, `{}` for a value; null when it is not written here. */
function sentences(node: ts.Expression): string[] | null {
  if (ts.isParenthesizedExpression(node)) return sentences(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isConditionalExpression(node)) {
    const a = sentences(node.whenTrue);
    const b = sentences(node.whenFalse);
    return a && b ? [...a, ...b] : null;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const a = sentences(node.left) ?? ['{}'];
    const b = sentences(node.right) ?? ['{}'];
    return a.flatMap((x) => b.map((y) => x + y));
  }
  if (ts.isTemplateExpression(node)) {
    let out = [node.head.text];
    for (const span of node.templateSpans) {
      const inner = span.expression;
      // Only a choice between two literals is spelled out; any other value is a placeholder.
      const options = ts.isConditionalExpression(inner) || ts.isParenthesizedExpression(inner) ? sentences(inner) : null;
      const parts = options && options.every((o) => !o.includes('{}')) ? options : ['{}'];
      out = out.flatMap((x) => parts.map((p) => x + p + span.literal.text));
    }
    return out;
  }
  return null;
}

export function domainMessages(): { found: FoundMessage[]; dynamic: number } {
  const found: FoundMessage[] = [];
  let dynamic = 0;
  for (const folder of MESSAGE_FOLDERS) {
    for (const path of files(join(PROJECT_ROOT, folder))) {
      const file = relative(PROJECT_ROOT, path);
      const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
      const take = (expr: ts.Expression | undefined) => {
        if (!expr) return;
        const s = sentences(expr);
        if (s === null) dynamic++;
        else for (const template of s) if (template.replace(/\{\}/g, '').trim() !== '') found.push({ template, file });
      };
      const visit = (node: ts.Node) => {
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
          const at = LOCAL_ARGUMENT[file]?.[node.expression.text] ?? MESSAGE_ARGUMENT[node.expression.text];
          if (at !== undefined) take(node.arguments[at]);
        }
        if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && MESSAGE_PROPERTIES.has(node.name.text)) take(node.initializer);
        if (ts.isObjectLiteralExpression(node)) {
          const props = node.properties.filter(ts.isPropertyAssignment);
          const named = (n: string) => props.find((p) => (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === n);
          const message = named('message');
          if (message && node.properties.some((p) => p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === 'field')) take(message.initializer);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return { found, dynamic };
}
