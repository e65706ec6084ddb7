import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { crossFamilyImports, fileCycles, FLOORS, floorOf, importEdges, moduleCycles, topFolderOf, violations } from '../scripts/house/house-rule.mjs';

// ARCHITECTURE.md: the floors of src/ and the rule of which may import which, held against the code.
const SRC = resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : name.endsWith('.ts') ? [p] : [];
  });
}

describe('the house (import graph of src/)', () => {
  const edges = importEdges(SRC);

  it('every source file sits on a floor', () => {
    const unplaced = sourceFiles(SRC).map((p) => relative(SRC, p)).filter((p) => !p.endsWith('.test.ts') && !floorOf(p));
    expect(unplaced).toEqual([]);
  });

  it('no import runs up a floor, no route reads storage, only the root reaches the simulator', () => {
    expect(violations(edges)).toEqual([]);
  });

  it('no route imports storage: routes call services', () => {
    const onStorage = edges.filter((e) => e.from.startsWith('http/routes/') && e.to.startsWith('infra/storage/')).map((e) => e.from);
    expect([...new Set(onStorage)].sort()).toEqual([]);
  });

  it('no two modules (folders) import each other, directly or around a circle', () => {
    expect(moduleCycles(edges)).toEqual([]);
  });

  it('no two top-level folders import each other, directly or around a circle (depth 1)', () => {
    expect(moduleCycles(edges, topFolderOf)).toEqual([]);
  });

  it('each top-level folder of src/ sits on exactly one floor', () => {
    const floorsOf = new Map<string, Set<number>>();
    for (const p of sourceFiles(SRC).map((f) => relative(SRC, f)).filter((f) => !f.endsWith('.test.ts'))) {
      const top = topFolderOf(p);
      floorsOf.set(top, (floorsOf.get(top) ?? new Set()).add(floorOf(p)?.floor ?? -1));
    }
    expect([...floorsOf].filter(([, f]) => f.size !== 1).map(([top, f]) => `${top}: floors ${[...f].join(', ')}`)).toEqual([]);
  });

  it('no two files import each other, directly or around a circle (type-only imports included)', () => {
    expect(fileCycles(edges)).toEqual([]);
  });

  it('the jobs table is written only by the queue: infra/queue/ in code, enqueue_job() in SQL (migration 50 on)', () => {
    const writes = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE)\s+(?:TABLE\s+)?"?jobs"?\b/i;
    const offenders = sourceFiles(SRC)
      .map((p) => relative(SRC, p))
      .filter((p) => !p.endsWith('.test.ts') && !p.startsWith('infra/queue/'))
      .filter((p) => {
        const migration = /^infra\/storage\/migrations\/(\d{4})_/.exec(p);
        // Migrations before 50 are history, applied as written; from 50 on only enqueue_job() itself writes.
        if (migration) return Number(migration[1]) > 50 && writes.test(readFileSync(join(SRC, p), 'utf8'));
        return writes.test(readFileSync(join(SRC, p), 'utf8'));
      });
    expect(offenders).toEqual([]);
  });

  it("no file outside infra/ imports the issuers' row type: use cases, views and hooks speak of kernel/issuer.ts", () => {
    const rows = edges.filter((e) => e.to === 'infra/storage/repositories/issuer-repository.ts' && !e.from.startsWith('infra/') && e.names?.some((n) => /Row$/.test(n)));
    expect(rows.map((e) => e.from)).toEqual([]);
  });

  it('no document family (nfce, nfe, nfse) imports another', () => {
    expect(crossFamilyImports(edges)).toEqual([]);
  });

  it('the pure layers import no framework, database or network', () => {
    const impure = /from ['"](fastify|@fastify\/[^'"]+|pg|ioredis|@electric-sql\/pglite|node:net|node:http|node:https|nodemailer)['"]/;
    const pure = sourceFiles(join(SRC, 'documents')).filter((p) => p.includes('/domain/')).concat(sourceFiles(join(SRC, 'fiscal/xml')), sourceFiles(join(SRC, 'kernel')));
    const offenders = pure.filter((p) => !p.endsWith('.test.ts') && impure.test(readFileSync(p, 'utf8'))).map((p) => relative(SRC, p));
    expect(offenders).toEqual([]);
  });

  it('no source file reaches 400 lines', () => {
    const long = sourceFiles(SRC).map((p) => [relative(SRC, p), readFileSync(p, 'utf8').split('\n').length] as const).filter(([, n]) => n >= 400);
    expect(long).toEqual([]);
  });
});

describe('the documented layout', () => {
  const folders = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? [`${relative(SRC, p)}/`, ...folders(p)] : [];
    });
  const named = (doc: string) => {
    const text = readFileSync(resolve(SRC, '..', doc), 'utf8');
    const block = text.slice(text.indexOf('```\nsrc/\n'));
    return new Set([...block.slice(0, block.indexOf('\n```')).matchAll(/^ {2}([a-z0-9-]+(?:\/[a-z0-9-]+)*\/)\s/gm)].map((m) => m[1]!));
  };

  for (const doc of ['docs/guides/development.md', 'ARCHITECTURE.md']) {
    it(`${doc} names every folder of src/, one line each, and no folder that is gone`, () => {
      const tree = folders(SRC).sort();
      expect([...named(doc)].sort()).toEqual(tree);
    });
  }
});

describe('the rule itself fails on a forbidden import', () => {
  const check = (files: Record<string, string>) => [...violations(importEdges('/x/src', files)), ...moduleCycles(importEdges('/x/src', files)).map((c) => c.join(' <-> '))];

  it('a service importing the HTTP error module, a domain file importing a service, a route reading a repository', () => {
    expect(check({
      'platform/webhooks/manage-webhooks.ts': "import { ApiError } from '../../http/errors.js';",
      'documents/nfce/domain/sale.ts': "import type { IssueDeps } from '../services/nfce-deps.js';",
      'http/routes/v1/webhooks.ts': "import { listWebhookEndpoints } from '../../../infra/storage/repositories/webhook-repository.js';",
      'fiscal/xml/nfe/format.ts': "import { formatCents } from '../../../documents/nfce/domain/decimal.js';",
      'platform/issuers/issuer-validation.ts': "import { checkText } from '../../documents/nfce/domain/field-rules.js';",
      'documents/nfe/domain/compute-nfe.ts': "import { icmsOf } from '../../nfce/domain/item-taxes.js';",
    })).toEqual([
      'documents/nfce/domain/sale.ts imports documents/nfce/services/nfce-deps.ts: a document domain is pure (kernel, fiscal core, printing and domains only)',
      'documents/nfe/domain/compute-nfe.ts imports documents/nfce/domain/item-taxes.ts: a document family is imported by no other folder of documents/ (what two share moves to documents/goods/ or fiscal/)',
      'fiscal/xml/nfe/format.ts (fiscal core) imports documents/nfce/domain/decimal.ts (documents, features and the simulated authorities): upward',
      'http/routes/v1/webhooks.ts imports infra/storage/repositories/webhook-repository.ts: a route calls services, never storage',
      'platform/issuers/issuer-validation.ts imports documents/nfce/domain/field-rules.ts: the platform serves every document family and depends on none',
      'platform/webhooks/manage-webhooks.ts (documents, features and the simulated authorities) imports http/errors.ts (entry points (routes, plugins, job handlers)): upward',
    ]);
  });

  it("a feature's storage read by another feature or by a route, a top-level folder cycle", () => {
    expect(check({
      'platform/billing/usage.ts': "import { findSession } from '../people/storage/session-repository.js';",
      'documents/notes/services/a.ts': "import { listEvents } from '../../nfe/storage/nfe-event-repository.js';",
      'http/routes/v1/search.ts': "import { searchCandidates } from '../../../platform/search/storage/search-candidates.js';",
      'platform/people/sign-in.ts': "import { findSession } from './storage/session-repository.js';",
    })).toEqual([
      'documents/notes/services/a.ts imports documents/nfe/storage/nfe-event-repository.ts: a document family is imported by no other folder of documents/ (what two share moves to documents/goods/ or fiscal/)',
      "documents/notes/services/a.ts imports documents/nfe/storage/nfe-event-repository.ts: a feature's storage is imported only by that feature (documents/nfe/)",
      "http/routes/v1/search.ts imports platform/search/storage/search-candidates.ts: a feature's storage is imported only by that feature (platform/search/)",
      'http/routes/v1/search.ts imports platform/search/storage/search-candidates.ts: a route calls services, never storage',
      "platform/billing/usage.ts imports platform/people/storage/session-repository.ts: a feature's storage is imported only by that feature (platform/people/)",
    ]);
    const edges = importEdges('/x/src', { 'infra/queue/a.ts': "import { x } from '../../fiscal/b.js';", 'fiscal/b.ts': "import { y } from '../infra/queue/c.js';" });
    expect(moduleCycles(edges, topFolderOf)).toEqual([['fiscal', 'infra']]);
  });

  it("the note engine's storage: every document family reaches it, a platform feature or a route never", () => {
    expect(check({
      'documents/nfe/services/issue-nfe.ts': "import { getNote } from '../../notes/storage/note-repository.js';",
      'documents/nfce/storage/offline.ts': "import { insertNotes } from '../../notes/storage/note-repository.js';",
      'platform/overview/overview.ts': "import { getNote } from '../../documents/notes/storage/note-repository.js';",
      'http/routes/v1/nfe.ts': "import { getNote } from '../../../documents/notes/storage/note-repository.js';",
    })).toEqual([
      "http/routes/v1/nfe.ts imports documents/notes/storage/note-repository.ts: a feature's storage is imported only by that feature (documents/)",
      'http/routes/v1/nfe.ts imports documents/notes/storage/note-repository.ts: a route calls services, never storage',
      "platform/overview/overview.ts imports documents/notes/storage/note-repository.ts: a feature's storage is imported only by that feature (documents/)",
      'platform/overview/overview.ts imports documents/notes/storage/note-repository.ts: the platform serves every document family and depends on none',
    ]);
  });

  it("the issuers' row type imported outside infra/, by a feature, a use case or a re-export; the domain type and the functions are not", () => {
    expect(check({
      'platform/issuers/issuer-view.ts': "import type { IssuerRow } from '../../infra/storage/repositories/issuer-repository.js';",
      'documents/notes/services/issue-note.ts': "import { findIssuerForEmission, type EmissionIssuerRow as E } from '../../../infra/storage/repositories/issuer-repository.js';",
      'platform/exports/a.ts': "export type { IssuerRow } from '../../infra/storage/repositories/issuer-repository.js';",
      'platform/exports/b.ts': "import { findIssuer } from '../../infra/storage/repositories/issuer-repository.js';\nimport type { RegisteredIssuer } from '../../kernel/issuer.js';",
      'infra/storage/repositories/note-skips.ts': "import type { IssuerRow } from './issuer-repository.js';",
    })).toEqual([
      'documents/notes/services/issue-note.ts imports EmissionIssuerRow from infra/storage/repositories/issuer-repository.ts: a row type stays in infra/; use cases speak of the domain type (kernel/issuer.ts)',
      'platform/exports/a.ts imports IssuerRow from infra/storage/repositories/issuer-repository.ts: a row type stays in infra/; use cases speak of the domain type (kernel/issuer.ts)',
      'platform/issuers/issuer-view.ts imports IssuerRow from infra/storage/repositories/issuer-repository.ts: a row type stays in infra/; use cases speak of the domain type (kernel/issuer.ts)',
    ]);
  });

  it('two folders on one floor importing each other make a cycle', () => {
    expect(check({
      'fiscal/tax-id.ts': "import { x } from './xml/a.js';",
      'fiscal/xml/a.ts': "import { y } from '../tax-id.js';",
    })).toEqual(['fiscal <-> fiscal/xml']);
  });

  it('two files of one folder importing each other make a file cycle, even by types only', () => {
    const edges = importEdges('/x/src', {
      'fiscal/xml/nfe/model.ts': "import type { A } from './model-55.js';",
      'fiscal/xml/nfe/model-55.ts': "import type { B } from './model.js';",
    });
    expect(moduleCycles(edges)).toEqual([]);
    expect(fileCycles(edges)).toEqual([['fiscal/xml/nfe/model-55.ts', 'fiscal/xml/nfe/model.ts']]);
  });

  it('one family importing another is named, the shared goods domain is not', () => {
    const edges = importEdges('/x/src', {
      'documents/nfe/domain/a.ts': "import { x } from '../../nfce/domain/b.js';\nimport { y } from '../../goods/domain/c.js';",
    });
    expect(crossFamilyImports(edges)).toEqual(['documents/nfe/domain/a.ts imports documents/nfce/domain/b.ts: a family never imports another family']);
  });

  it('a type-only import counts like any other', () => {
    expect(check({ 'kernel/errors.ts': "import type { Config } from '../http/plugins/auth.js';" })).toHaveLength(1);
  });

  it('names each floor once, from the root down', () => {
    expect(FLOORS.map((f) => f.floor)).toEqual([7, 6, 5, 4, 3, 2, 1]);
  });
});

describe('ESLint holds the same rule, so an editor marks a forbidden import at its line', () => {
  const eslint = new ESLint({ cwd: resolve(SRC, '..') });
  const lint = async (file: string, text: string) =>
    (await eslint.lintText(text, { filePath: join(SRC, file) }))[0]!.messages.filter((m) => m.ruleId === 'house/floors').map((m) => `${m.line}: ${m.message}`);

  it('an upward import, a route reading storage, a family importing another and a type-only import of a route are each reported', async () => {
    expect(await lint('fiscal/xml/nfe/format.ts', "import { formatCents } from '../../../documents/nfce/domain/decimal.js';\nexport const f = formatCents;\n")).toEqual([
      '1: fiscal/xml/nfe/format.ts (fiscal core) imports documents/nfce/domain/decimal.ts (documents, features and the simulated authorities): upward',
    ]);
    expect(await lint('http/routes/v1/webhooks.ts', "export const a = 1;\nexport { listWebhookEndpoints } from '../../../infra/storage/repositories/webhook-repository.js';\n")).toEqual([
      '2: http/routes/v1/webhooks.ts imports infra/storage/repositories/webhook-repository.ts: a route calls services, never storage',
    ]);
    expect(await lint('documents/nfe/domain/compute-nfe.ts', "import { icmsOf } from '../../nfce/domain/item-taxes.js';\nexport const g = icmsOf;\n")).toEqual([
      '1: documents/nfe/domain/compute-nfe.ts imports documents/nfce/domain/item-taxes.ts: a document family is imported by no other folder of documents/ (what two share moves to documents/goods/ or fiscal/)',
    ]);
    expect(await lint('kernel/errors.ts', "import type { Config } from '../http/plugins/auth.js';\nexport type C = Config;\n")).toHaveLength(1);
  });

  it("the issuers' row type imported by a use case is reported at its line, the repository's functions are not", async () => {
    expect(await lint('platform/issuers/issuer-view.ts', "import { findIssuer } from '../../infra/storage/repositories/issuer-repository.js';\nimport { listIssuers, type IssuerRow as R } from '../../infra/storage/repositories/issuer-repository.js';\nexport type X = R;\nexport const f = [findIssuer, listIssuers];\n")).toEqual([
      '2: platform/issuers/issuer-view.ts imports IssuerRow from infra/storage/repositories/issuer-repository.ts: a row type stays in infra/; use cases speak of the domain type (kernel/issuer.ts)',
    ]);
  });

  it('an allowed import and a file outside src/ are not reported', async () => {
    expect(await lint('documents/nfe/domain/compute-nfe.ts', "import { x } from '../../goods/domain/c.js';\nexport const g = x;\n")).toEqual([]);
    const outside = (await eslint.lintText("import { x } from '../src/http/app.js';\nexport const g = x;\n", { filePath: resolve(SRC, '../test/x.test.ts') }))[0]!.messages;
    expect(outside.filter((m) => m.ruleId === 'house/floors')).toEqual([]);
  });
});
