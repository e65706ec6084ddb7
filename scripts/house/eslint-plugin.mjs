// ESLint's view of the house rule (house-rule.mjs): each relative import of a file of src/ is checked
// as it is written, so an editor marks an upward import, a route reading storage or one document
// family importing another at the line. Cycles need the whole graph and stay in test/architecture.test.ts.
import { relative, resolve } from 'node:path';
import { edgeOf, edgeViolations } from './house-rule.mjs';

const SRC = resolve(import.meta.dirname, '../../src');

const floors = {
  meta: { type: 'problem', docs: { description: 'Imports follow the floors of ARCHITECTURE.md' }, schema: [] },
  create(context) {
    const file = relative(SRC, context.filename);
    if (file.startsWith('..') || !file.endsWith('.ts') || file.endsWith('.test.ts')) return {};
    const check = (node, source, typeOnly, names = []) => {
      const spec = source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      for (const message of edgeViolations(edgeOf(SRC, file, spec, typeOnly, names))) context.report({ node: source, message });
    };
    // The names taken from the module (`import { a as b }` takes a), for the rules that look at them (row types).
    const taken = (n) => (n.specifiers ?? []).filter((s) => s.type !== 'ImportDefaultSpecifier' && s.type !== 'ImportNamespaceSpecifier').map((s) => (s.imported ?? s.local).name ?? (s.imported ?? s.local).value);
    return {
      ImportDeclaration: (n) => check(n, n.source, n.importKind === 'type', taken(n)),
      ExportNamedDeclaration: (n) => check(n, n.source, n.exportKind === 'type', taken(n)),
      ExportAllDeclaration: (n) => check(n, n.source, n.exportKind === 'type'),
      ImportExpression: (n) => check(n, n.source, false),
    };
  },
};

export default { meta: { name: 'house' }, rules: { floors } };
