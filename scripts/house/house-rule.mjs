// The house's rule of which folder may import which (ARCHITECTURE.md), in plain JavaScript so that
// both the test suite (test/architecture.test.ts) and ESLint (scripts/house/eslint-plugin.mjs, so an
// editor marks a forbidden import as it is typed) read the same rule. Types: house-rule.d.mts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const under = (...prefixes) => (p) => prefixes.some((x) => (x.endsWith('/') ? p.startsWith(x) : p === x));

/**
 * Every file of src/ sits on a floor; an import may only run to the same floor or down. Each top-level
 * folder of src/ sits on exactly one floor (the files of src/ itself each on theirs), so the layout
 * shows the floors: `moduleCycles(edges, topFolderOf)` finds no cycle between them.
 */
export const FLOORS = [
  { floor: 7, name: 'composition root', match: under('main.ts', 'runtime.ts', 'app.ts', 'bootstrap.ts', 'cli/') },
  { floor: 6, name: 'entry points (routes, plugins, job handlers)', match: under('http/', 'worker/', 'app-context.ts') },
  { floor: 5, name: 'documents, features and the simulated authorities', match: under('documents/', 'platform/', 'authority-sim/') },
  { floor: 4, name: 'printing', match: under('danfe/') },
  { floor: 3, name: 'fiscal core', match: under('fiscal/') },
  { floor: 2, name: 'infrastructure (storage, queue, keys, identity)', match: under('infra/') },
  { floor: 1, name: 'kernel', match: under('kernel/', 'config.ts') },
];

/** The top-level folder of a path (or the file itself at the top of src/): the unit of the depth-1 cycle check. */
export function topFolderOf(path) {
  return path.split('/')[0];
}

/** A feature's own repositories (`platform/people/storage/`, `documents/nfe/storage/`): only that feature imports them. */
const STORAGE_OWNER = /^((?:platform|documents)\/[a-z-]+)\/storage\//;
/**
 * Storage owned by more than its folder: the notes table belongs to the shared note engine (`documents/notes/`),
 * which every document family runs, so the families' use cases read and settle notes through it.
 */
const SHARED_STORAGE = { 'documents/notes': 'documents' };

/**
 * Repositories whose rows map to a domain type: the row type (a name ending in `Row`) stays inside infra/,
 * and use cases, views and tests speak of the domain type (ARCHITECTURE.md, "The layout").
 */
const ROWS_BEHIND_DOMAIN = { 'infra/storage/repositories/issuer-repository.ts': 'kernel/issuer.ts' };

/** A document domain is pure: it imports the kernel, the fiscal core, printing and document domains only. */
const DOMAIN = /^documents\/[a-z]+\/domain\//;
const DOMAIN_MAY_IMPORT = (to) => DOMAIN.test(to) || to.startsWith('kernel/') || to.startsWith('fiscal/') || to.startsWith('danfe/') || to === 'config.ts';

export function floorOf(path) {
  return FLOORS.find((f) => f.match(path));
}

/** The unit of the cycle check: a folder, two levels deep (three under documents/ and platform/). */
export function moduleOf(path) {
  const parts = path.split('/');
  const depth = parts[0] === 'documents' ? 3 : 2;
  if (parts.length === 1) return path; // a file of src/ itself (main.ts, config.ts) is a module of its own
  return parts.length <= depth ? parts.slice(0, -1).join('/') : parts.slice(0, depth).join('/');
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:([^'"`;]*?)\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The edge of one relative import `spec` written in `file` (both relative to `srcDir`), with the names it takes. */
export function edgeOf(srcDir, file, spec, typeOnly, names = []) {
  const target = relative(srcDir, resolve(srcDir, dirname(file), spec)).replace(/\.js$/, '.ts');
  return { from: file, to: target, typeOnly, spec, names };
}

/** The names an import or export clause takes from its module: `{ a, type B as C }` -> a, B. */
function namesOf(clause) {
  const braces = clause && /\{([^}]*)\}/.exec(clause);
  if (!braces) return [];
  return braces[1].split(',').map((s) => s.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0].trim()).filter(Boolean);
}

/** Every relative import of every non-test .ts file under `srcDir` (or of `files`), as paths relative to it. */
export function importEdges(srcDir, files) {
  const sources = files ?? readTree(srcDir);
  const edges = [];
  for (const [file, text] of Object.entries(sources)) {
    for (const m of text.matchAll(IMPORT)) edges.push(edgeOf(srcDir, file, m[4], Boolean(m[2]), namesOf(m[3])));
    for (const m of text.matchAll(DYNAMIC)) edges.push(edgeOf(srcDir, file, m[1], false));
  }
  return edges;
}

function readTree(srcDir) {
  const out = {};
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) out[relative(srcDir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(srcDir);
  return out;
}

const family = (p) => /^documents\/(nfce|nfe|nfse)\//.exec(p)?.[1];

/** What is wrong with one import, if anything: upward across floors, into storage from a route, unplaced. */
export function edgeViolations(e) {
  const found = [];
  const a = floorOf(e.from);
  const b = floorOf(e.to);
  if (!a) return [`${e.from}: on no floor`];
  if (!b) return [`${e.from} -> ${e.to}: target on no floor`];
  if (b.floor > a.floor) found.push(`${e.from} (${a.name}) imports ${e.to} (${b.name}): upward`);
  if (e.from.startsWith('http/routes/') && (e.to.startsWith('infra/storage/') || STORAGE_OWNER.test(e.to))) found.push(`${e.from} imports ${e.to}: a route calls services, never storage`);
  const owner = SHARED_STORAGE[STORAGE_OWNER.exec(e.to)?.[1]] ?? STORAGE_OWNER.exec(e.to)?.[1];
  if (owner && !e.from.startsWith(`${owner}/`)) found.push(`${e.from} imports ${e.to}: a feature's storage is imported only by that feature (${owner}/)`);
  if (DOMAIN.test(e.from) && !DOMAIN_MAY_IMPORT(e.to)) found.push(`${e.from} imports ${e.to}: a document domain is pure (kernel, fiscal core, printing and domains only)`);
  const domain = ROWS_BEHIND_DOMAIN[e.to];
  if (domain && !e.from.startsWith('infra/')) {
    for (const name of (e.names ?? []).filter((n) => /Row$/.test(n))) found.push(`${e.from} imports ${name} from ${e.to}: a row type stays in infra/; use cases speak of the domain type (${domain})`);
  }
  if (e.from.startsWith('platform/') && e.to.startsWith('documents/')) found.push(`${e.from} imports ${e.to}: the platform serves every document family and depends on none`);
  const [fa, fb] = [family(e.from), family(e.to)];
  if (fb && e.from.startsWith('documents/') && fa !== fb) found.push(`${e.from} imports ${e.to}: a document family is imported by no other folder of documents/ (what two share moves to documents/goods/ or fiscal/)`);
  if (e.to.startsWith('authority-sim/') && !e.from.startsWith('authority-sim/') && !['runtime.ts', 'main.ts'].includes(e.from) && !e.from.startsWith('platform/sandbox/')) {
    found.push(`${e.from} imports ${e.to}: only the composition root and platform/sandbox reach the simulator`);
  }
  return found;
}

/** Imports that break the rule, over a whole graph. */
export function violations(edges) {
  return [...new Set(edges.flatMap(edgeViolations))].sort();
}

/** Cycles between modules (folders; or, with `unit` = the path itself, between files), each as the list of its members. */
export function moduleCycles(edges, unit = moduleOf) {
  const graph = new Map();
  for (const e of edges) {
    const a = unit(e.from);
    const b = unit(e.to);
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a).add(b);
  }
  // Tarjan's strongly connected components.
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do { w = stack.pop(); on.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** Cycles between single files: a type-only import counts, since the two files can no longer be read apart. */
export function fileCycles(edges) {
  return moduleCycles(edges, (p) => p);
}

/** Imports from one document family into another (each family is a sibling over the shared core). */
export function crossFamilyImports(edges) {
  return edges
    .filter((e) => {
      const a = family(e.from);
      const b = family(e.to);
      return a !== undefined && b !== undefined && a !== b;
    })
    .map((e) => `${e.from} imports ${e.to}: a family never imports another family`);
}
