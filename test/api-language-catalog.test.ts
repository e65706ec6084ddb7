// The pt-BR catalog is whole where it can be (every error code, every rejection
// hint, the schema keywords) and its gap in the validators' sentences is visible and cannot grow:
// test/fixtures/untranslated-pt-br.json lists each English sentence still without its Portuguese
// one. A new sentence in src/ fails here until it is translated (or, knowingly, listed); a
// translated one must leave the list; a catalog key that no longer matches a sentence in src/ fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REJECTION_HINTS } from '../src/fiscal/cstat/rejection-hints.js';
import { REJECTION_HINTS_PT_BR } from '../src/fiscal/cstat/rejection-hints-pt-br.js';
import { NFSE_HINTS } from '../src/documents/nfse/domain/nfse-rejection.js';
import { NFSE_HINTS_PT_BR } from '../src/documents/nfse/domain/nfse-rejection-hints-pt-br.js';
import { ERROR_STATUS } from '../src/kernel/errors.js';
import { ERROR_MESSAGES_PT_BR } from '../src/http/i18n/error-messages.js';
import { FIELD_RULES_PT_BR, GOODS_PT_BR } from '../src/http/i18n/domain-goods-pt-br.js';
import { NFCE_PT_BR, NFE_PT_BR } from '../src/http/i18n/domain-nfce-nfe-pt-br.js';
import { NFE_OPERATIONS_PT_BR } from '../src/http/i18n/domain-nfe-operations-pt-br.js';
import { REFORM_GROUPS_PT_BR } from '../src/http/i18n/domain-reform-groups-pt-br.js';
import { NFSE_PT_BR } from '../src/http/i18n/domain-nfse-pt-br.js';
import { DETAIL_CATALOG_PT_BR, localizeError, localizeRejection } from '../src/http/i18n/localize.js';
import { SCHEMA_KEYWORDS_PT_BR } from '../src/http/i18n/validation-messages.js';
import { TemplateCatalog } from '../src/http/i18n/template-catalog.js';
import { explainRejection } from '../src/fiscal/cstat/explain-rejection.js';
import { PROJECT_ROOT } from '../src/kernel/paths.js';
import { domainMessages } from './support/domain-messages.js';

const UNTRANSLATED_FILE = join(PROJECT_ROOT, 'test/fixtures/untranslated-pt-br.json');
const placeholders = (s: string) => (s.match(/\{\d*\}/g) ?? []).length;

describe('the catalog is whole where it can be', () => {
  it('every error code of kernel/errors.ts has its Portuguese sentence', () => {
    for (const code of Object.keys(ERROR_STATUS)) expect(ERROR_MESSAGES_PT_BR[code as keyof typeof ERROR_STATUS], code).toMatch(/\S/);
  });

  it('every rejection hint (cStat and NFS-e code) has its Portuguese sentence, and only those', () => {
    expect(Object.keys(REJECTION_HINTS_PT_BR).sort()).toEqual(Object.keys(REJECTION_HINTS).sort());
    expect(Object.keys(NFSE_HINTS_PT_BR).sort()).toEqual(Object.keys(NFSE_HINTS).sort());
    for (const [code, { hint }] of Object.entries(REJECTION_HINTS)) {
      const said = localizeRejection('pt-BR', explainRejection(code));
      expect(said.hint, code).toBe(REJECTION_HINTS_PT_BR[code]);
      expect(said.hint, code).not.toBe(hint);
    }
  });

  it('a cStat without its own hint gets the general one in Portuguese; the authority message stays', () => {
    const r = explainRejection('999', 'Rejeição: Erro não catalogado');
    expect(localizeRejection('pt-BR', r)).toEqual({ ...r, hint: 'A SEFAZ recusou a nota pelo motivo da mensagem; corrija os dados e emita uma nova nota.' });
    expect(localizeRejection('en', r)).toEqual(r);
  });

  it('the schema keywords a request meets are worded', () => {
    for (const k of ['required', 'type', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'enum', 'additionalProperties', 'format', 'const', 'minItems', 'maxItems', 'multipleOf', 'anyOf']) {
      expect(SCHEMA_KEYWORDS_PT_BR, k).toContain(k);
    }
  });

  it('a translation takes as many values as its English template gives', () => {
    for (const source of [FIELD_RULES_PT_BR, GOODS_PT_BR, NFCE_PT_BR, NFE_PT_BR, NFE_OPERATIONS_PT_BR, REFORM_GROUPS_PT_BR, NFSE_PT_BR]) {
      for (const [en, pt] of Object.entries(source)) expect(placeholders(pt), en).toBe(placeholders(en));
    }
  });

  it('the template fills values in order, the most specific template first', () => {
    const c = new TemplateCatalog([{ 'must be at most {}': 'A {}', 'must be at most {} characters (has {})': 'B {} {}', 'is {}': 'C {1} {0}' }]);
    expect(c.translate('must be at most 60 characters (has 61)')).toBe('B 60 61');
    expect(c.translate('must be at most 60')).toBe('A 60');
    expect(c.translate('something else')).toBeUndefined();
  });

  it('an English envelope without a catalog sentence becomes its code\'s sentence; a summary is said from its details', () => {
    expect(localizeError('pt-BR', 'invalid_state', 'A sentence nobody translated', undefined).message).toBe(ERROR_MESSAGES_PT_BR.invalid_state);
    const said = localizeError('pt-BR', 'validation_error', 'items[0].ncm is required (and 1 more problem)', [
      { field: 'items[0].ncm', message: 'is required', rule: 'I05-10' },
      { field: 'payment.amount', message: 'must not be negative' },
    ]);
    expect(said).toEqual({
      message: 'items[0].ncm é obrigatório (e mais 1 problema)',
      details: [{ field: 'items[0].ncm', message: 'é obrigatório', rule: 'I05-10' }, { field: 'payment.amount', message: 'não pode ser negativo' }],
    });
    expect(localizeError('en', 'invalid_state', 'A sentence nobody translated', undefined).message).toBe('A sentence nobody translated');
  });
});

describe("the validators' sentences", () => {
  const { found } = domainMessages();
  const inSource = new Set(found.map((f) => f.template));
  const untranslated = [...new Map(found.filter((f) => !DETAIL_CATALOG_PT_BR.has(f.template)).map((f) => [f.template, f.file])).entries()]
    .map(([template, file]) => ({ file, template }))
    .sort((a, b) => (a.file + a.template).localeCompare(b.file + b.template));

  it('every English sentence without Portuguese is listed in test/fixtures/untranslated-pt-br.json, and only those', () => {
    const listed = JSON.parse(readFileSync(UNTRANSLATED_FILE, 'utf8')) as Array<{ file: string; template: string }>;
    const key = (m: { template: string }) => m.template;
    const fresh = untranslated.filter((m) => !listed.some((l) => key(l) === key(m)));
    const done = listed.filter((l) => !untranslated.some((m) => key(m) === key(l)));
    // A new sentence: translate it in src/http/i18n/. A translated one: remove it from the list.
    expect({ fresh, done }).toEqual({ fresh: [], done: [] });
    console.info(`pt-BR: ${inSource.size - untranslated.length} of ${inSource.size} validator sentences translated; ${untranslated.length} listed as untranslated`);
  });

  it('every key of the catalog is a sentence the validators still write (a reworded one is not silently English)', () => {
    for (const source of [FIELD_RULES_PT_BR, GOODS_PT_BR, NFCE_PT_BR, NFE_PT_BR, NFE_OPERATIONS_PT_BR, REFORM_GROUPS_PT_BR, NFSE_PT_BR]) {
      for (const en of Object.keys(source)) expect(inSource.has(en), en).toBe(true);
    }
  });
});

describe('values inside a sentence', () => {
  it('the law behind each rate period of the shipped reform tables is said in Portuguese', () => {
    const rates = JSON.parse(readFileSync(join(PROJECT_ROOT, 'assets/fiscal/reform/rates.json'), 'utf8')) as { periods: Array<{ source: string }> };
    for (const { source } of rates.periods) {
      const said = DETAIL_CATALOG_PT_BR.translate(`must be 0.1 (pIBSUF) for a note dated 2026 (NT 2025.002 UB18-10; ${source})`);
      expect(said, source).toMatch(/^deve ser 0\.1 \(pIBSUF\) numa nota com data de 2026 \(NT 2025\.002 UB18-10; LC 214\/2025, art\. /);
      expect(said, source).not.toMatch(/\b(?:and|the|of|by|rate|reduced)\b/);
    }
  });

  it('a list of groups, a CFOP scope, an IPI case and a note type not issued are said in Portuguese', () => {
    expect(DETAIL_CATALOG_PT_BR.translate('CST 620 / cClassTrib 620001 needs monophase (gIBSCBSMono), competence adjustment (gAjusteCompet), which this gateway does not write yet'))
      .toBe('o CST 620 / cClassTrib 620001 exige monofásico (gIBSCBSMono), ajuste de competência (gAjusteCompet), que este gateway ainda não escreve');
    expect(DETAIL_CATALOG_PT_BR.translate('6102 is a CFOP of an operation interstate (2xxx/6xxx), but the recipient makes this operation internal (same state: 1xxx/5xxx); use a CFOP starting with 5'))
      .toBe('6102 é um CFOP de operação interestadual (2xxx/6xxx), mas o destinatário faz desta uma operação interna (mesmo estado: 1xxx/5xxx); use um CFOP que comece com 5');
    expect(DETAIL_CATALOG_PT_BR.translate('is required with IPI CST 04 (immunity): give the legal framework code of the immunity, 001 to 099 (MOC O09-10, 388)'))
      .toBe('é obrigatório com o CST 04 do IPI (imunidade): informe o código de enquadramento legal da imunidade, de 001 a 099 (MOC O09-10, 388)');
    expect(DETAIL_CATALOG_PT_BR.translate('07 is not issued by the gateway yet: it binds cClassTrib 410030 and gEstornoCred; it issues 01, 05, 06'))
      .toBe('o tipo 07 ainda não é emitido pelo gateway: ele exige o cClassTrib 410030 e o gEstornoCred; o gateway emite 01, 05, 06');
  });

  it('a document name and an ISO day are said in Portuguese too', () => {
    expect(DETAIL_CATALOG_PT_BR.translate('000001 may not be used in an NFC-e (model 65): the cClassTrib table marks it for an NF-e (model 55) or an NFS-e only'))
      .toBe('000001 não pode ser usado neste documento (a NFC-e (modelo 65)): a tabela de cClassTrib o reserva só para a NF-e (modelo 55) ou a NFS-e');
    expect(DETAIL_CATALOG_PT_BR.translate('999 is not a CSOSN an NFC-e accepts; use one of 102, 103'))
      .toBe('999 não é um CSOSN que a NFC-e aceita; use um de 102, 103');
    expect(DETAIL_CATALOG_PT_BR.translate('must not be before the emission date 2026-03-05 (MOC Y09-20, 900)'))
      .toBe('não pode ser anterior à data de emissão 05/03/2026 (MOC Y09-20, 900)');
  });
});

describe("the history's pt-BR lines (src/http/i18n/history-pt-br.ts)", () => {
  it('each key is a sentence the gateway writes: its fixed parts stand in src/documents', async () => {
    const { readdirSync, statSync } = await import('node:fs');
    const { HISTORY_SENTENCES } = await import('../src/http/i18n/history-pt-br.js');
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
    });
    const source = walk(join(PROJECT_ROOT, 'src/documents')).map((p) => readFileSync(p, 'utf8')).join('\n');
    // Split at the seams where the code composes a line (a parenthesis, an appended "; ..." clause).
    const parts = (key: string) => key.split(/\{\}|[();]/).map((part) => part.trim()).filter((part) => part.length >= 6);
    const missing = HISTORY_SENTENCES.flatMap((key) => parts(key).filter((part) => !source.includes(part)).map((part) => `${key}: "${part}"`));
    expect(missing).toEqual([]);
  });
});
