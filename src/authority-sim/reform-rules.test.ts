import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../documents/nfe/domain/index.js';
import type { Issuer } from '../documents/goods/domain/issuer-context.js';
import { signElement } from '../fiscal/xml/signature/sign.js';
import { NUMERIC_ISSUER, testSigningKey } from '../../test/support/nfce-fixtures.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from '../../test/support/nfe-fixtures.js';
import { nfeVerdict } from '../../test/support/simulator-verdict.js';
import { ENFORCED_REFORM_RULES, REFORM_NOT_ENFORCED } from './enforced-reform.js';
import { REFORM_RULES, reformRule } from './reform-rule-table.js';
import { useReformTables, viewOf } from './reform-tables-view.js';
import { reformTablesInForce } from '../fiscal/reform/reform-tables-in-force.js';
import { reformRejection } from './reform-rules.js';
import { nfeFacts } from './nfe-facts.js';
import { TEST_TABLES } from '../../test/support/reform-test-tables.js';
import { item1, REFORM_BREAKERS } from '../../test/support/reform-breakers.js';
import { fitReformRates } from '../../test/support/reform-rates-fit.js';

// NT 2025.002-RTC reform rules (reform-rules.ts, docs/fiscal/reform-rules.md): the gateway's reform NF-e passes;
// the same note hand-edited the way a faulty client writes it, signed again, is refused with the rule's code
// and the NT's words. Figures: interstateRequest at the 2026 test rates (LC 214/2025 arts. 343 and 346) on the
// UB16-10 bases (docs/fiscal/tax-reform.md "The base"): item 1 3,000.00 + 38.70 freight - 19.50 PIS - 90.00
// COFINS - 401.11 ICMS - 267.41 DIFAL - 66.85 FCP = 2,193.83, IBS UF 0.10% = 2.19, CBS 0.90% = 19.74;
// item 2 101.00 + 1.30 - 0.66 - 3.03 = 98.61, IBS UF 0.10, CBS 0.89; totals 2,292.44, 2.29 and 20.63.

const reformNfe = { ...NFE_CONTEXT, taxReform: true };

function build(issuer: Issuer = NUMERIC_ISSUER, emittedAt = new Date('2026-07-15T15:04:05Z')): string {
  const req = interstateRequest();
  if (issuer.crt !== 3) {
    req.items = req.items.map(({ difal: _difal, ...item }) => ({ ...item, cst_icms: '102', pICMS: undefined }));
    req.consumidor_final = true;
  }
  // From 2027 the CBS rate is not published: the item sends one (docs/fiscal/tax-reform.md, "Rates by date").
  fitReformRates(req.items, emittedAt, issuer.endereco.codigo_municipio, issuer.uf);
  const p = prepareNfe(req, { ...reformNfe, issuer, today: emittedAt.toISOString().slice(0, 10) });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext({ emittedAt })).xml;
}

/** Item 1 at CST 200 / cClassTrib 200030 (LC 214/2025 Anexo IV medical devices) with its 60% reduction. */
function reducedNote(): string {
  const req = interstateRequest();
  req.items[0]!.reform = { cst: '200', class_code: '200030', rate_reduction: 60 };
  const p = prepareNfe(req, reformNfe);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext()).xml;
}

/** The note signed again after an edit (the signature is the last child of NFe). */
function resign(xml: string): string {
  return signElement(xml.replace(/<Signature[\s\S]*<\/Signature>/, ''), 'infNFe', testSigningKey()).xml;
}

const verdict = (xml: string, now = new Date('2026-07-15T15:04:10Z')) => nfeVerdict(resign(xml), { now, signature: true });
const G1 = '<vBC>2193.83</vBC><gIBSUF><pIBSUF>0.10</pIBSUF><vIBSUF>2.19</vIBSUF></gIBSUF><gIBSMun><pIBSMun>0.00</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>2.19</vIBS><gCBS><pCBS>0.90</pCBS><vCBS>19.74</vCBS></gCBS>';

let previous: ReturnType<typeof useReformTables>;
beforeAll(() => {
  previous = useReformTables(() => TEST_TABLES);
});
afterAll(() => {
  useReformTables(previous);
});

describe('the NT 2025.002 reform rules in the simulator', () => {
  const xml = build();

  it('pass the reform NF-e the gateway builds (CST 000 / 000001 at the 2026 rates)', () => {
    expect(xml).toContain(`<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS>${G1}</gIBSCBS></IBSCBS>`);
    expect(verdict(xml)).toBeNull();
  });

  it('refuse a rate other than the year\'s: pIBSUF 0.05 in 2026 (UB18-10, 1026), pIBSMun 0.05 (UB37-10, 1036), pCBS 0.80 (UB56-10, 1037)', () => {
    // Value kept consistent with the rate sent, so only the rate rule breaks: 2193.83 x 0.05% = 1.10.
    const ufOff = item1(xml, `<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS>${G1.replace('<pIBSUF>0.10</pIBSUF><vIBSUF>2.19', '<pIBSUF>0.05</pIBSUF><vIBSUF>1.10')}</gIBSCBS></IBSCBS>`);
    expect(verdict(ufOff)).toBe(1026);
    expect(reformRejection(nfeFacts(ufOff))).toMatchObject({ cStat: 1026, xMotivo: 'Rejeição: Alíquota do IBS da UF inválida [nItem: 1]' });
    expect(verdict(xml.replace('<pIBSMun>0.00</pIBSMun>', '<pIBSMun>0.05</pIBSMun>'))).toBe(1036);
    expect(reformRejection(nfeFacts(xml.replace('<pCBS>0.90</pCBS><vCBS>19.74', '<pCBS>0.80</pCBS><vCBS>17.55')))?.cStat).toBe(1037);
  });

  it('refuse an item value off by more than R$ 0.01 (UB35-10 1041, UB54-10 1052, UB67-10 1069) and vIBS not vIBSUF + vIBSMun (UB54a-10 1150)', () => {
    expect(verdict(xml.replace('<vIBSUF>2.19</vIBSUF>', '<vIBSUF>2.21</vIBSUF>'))).toBe(1041);
    // 0.01 either way is accepted (Observação 1): 2.20 is the next rule's business (vIBS no longer adds up).
    expect(reformRejection(nfeFacts(xml.replace('<vIBSUF>2.19</vIBSUF>', '<vIBSUF>2.20</vIBSUF>')))?.cStat).toBe(1150);
    expect(verdict(xml.replace('<vIBSMun>0.00</vIBSMun>', '<vIBSMun>0.05</vIBSMun>'))).toBe(1052);
    expect(verdict(xml.replace('<vCBS>19.74</vCBS>', '<vCBS>19.64</vCBS>'))).toBe(1069);
  });

  it('refuse IBSCBSTot totals that are not the sum of the items (W35-10 1076, W41-10 1080, W46-10 1084, W47-10 1085, W56-10 1091, W38-10 1077, W53-10 1088)', () => {
    const tot = (name: string, from: string, to: string) => xml.replace(new RegExp(`(<IBSCBSTot>[\\s\\S]*?)<${name}>${from.replace('.', '\\.')}</${name}>`), `$1<${name}>${to}</${name}>`);
    expect(verdict(tot('vBCIBSCBS', '2292.44', '2291.44'))).toBe(1076);
    expect(verdict(tot('vIBSUF', '2.29', '2.30'))).toBe(1080);
    expect(verdict(tot('vIBSMun', '0.00', '0.01'))).toBe(1084);
    expect(verdict(tot('vIBS', '2.29', '2.28'))).toBe(1085);
    expect(verdict(tot('vCBS', '20.63', '20.62'))).toBe(1091);
    expect(verdict(tot('vDif', '0.00', '1.00'))).toBe(1077);
    expect(reformRejection(nfeFacts(xml.replace(/(<gCBS><vDif>)0\.00/, '$11.00')))?.cStat).toBe(1088);
  });

  it('refuse IBSCBSTot without an item with IBSCBS (W34-10 1118) and items with IBSCBS without it (W34-20 1119)', () => {
    expect(verdict(xml.replace(/<IBSCBS>[\s\S]*?<\/IBSCBS>/g, ''))).toBe(1118);
    expect(verdict(xml.replace(/<IBSCBSTot>[\s\S]*?<\/IBSCBSTot>/, ''))).toBe(1119);
  });

  it('refuse groups the CST\'s indicators forbid or omit (UB13-20 1021, UB13-30 1022, UB13-39 1151, UB13-40 1116, UB13-44 1131, UB13-45 1132)', () => {
    expect(verdict(item1(xml, `<IBSCBS><CST>410</CST><cClassTrib>410004</cClassTrib><gIBSCBS>${G1}</gIBSCBS></IBSCBS>`))).toBe(1021);
    expect(verdict(item1(xml, '<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib></IBSCBS>'))).toBe(1022);
    const mono = '<gIBSCBSMono><vTotIBSMonoItem>0.00</vTotIBSMonoItem><vTotCBSMonoItem>0.00</vTotCBSMonoItem></gIBSCBSMono>';
    const at = (ibscbs: string) => reformRejection(nfeFacts(item1(xml, ibscbs)))?.cStat;
    expect(at(`<IBSCBS><CST>410</CST><cClassTrib>410004</cClassTrib>${mono}</IBSCBS>`)).toBe(1151);
    expect(at('<IBSCBS><CST>620</CST><cClassTrib>620001</cClassTrib></IBSCBS>')).toBe(1116);
    expect(at('<IBSCBS><CST>410</CST><cClassTrib>410004</cClassTrib><gTransfCred><vIBS>1.00</vIBS><vCBS>1.00</vCBS></gTransfCred></IBSCBS>')).toBe(1131);
    expect(at('<IBSCBS><CST>800</CST><cClassTrib>800001</cClassTrib></IBSCBS>')).toBe(1132);
  });

  it('refuse an unknown CST (UB13-10 1020) or classification (UB14-10 1023), one of another CST (UB14-20 1024) or not of the model (UB14-25 1025)', () => {
    const code = (cst: string, cls: string) => verdict(item1(xml, `<IBSCBS><CST>${cst}</CST><cClassTrib>${cls}</cClassTrib><gIBSCBS>${G1}</gIBSCBS></IBSCBS>`));
    expect(code('999', '000001')).toBe(1020);
    expect(code('000', '000999')).toBe(1023);
    expect(code('000', '200030')).toBe(1024);
    expect(verdict(item1(xml, '<IBSCBS><CST>410</CST><cClassTrib>410999</cClassTrib></IBSCBS>'))).toBe(1025);
  });

  it('refuse gRed a CST forbids (UB26-10 1032) and its absence where the CST asks for it (UB26-20 1033, UB45-20 1074, UB64-20 1079)', () => {
    const red = '<gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.04</pAliqEfet></gRed>';
    expect(verdict(xml.replace('<pIBSUF>0.10</pIBSUF><vIBSUF>2.19', `<pIBSUF>0.10</pIBSUF>${red}<vIBSUF>0.88`))).toBe(1032);
    // CST 200 / 200030 (60% reduction) sent without any gRed: the state sphere is checked first.
    const noRed = item1(xml, `<IBSCBS><CST>200</CST><cClassTrib>200030</cClassTrib><gIBSCBS>${G1}</gIBSCBS></IBSCBS>`);
    expect(reformRejection(nfeFacts(noRed))).toMatchObject({ cStat: 1033, xMotivo: 'Rejeição: Não informado o grupo de redução de alíquota Estadual [nItem: 1]' });
    expect(verdict(noRed)).toBe(1033);
  });

  it('pass the gateway\'s CST 200 note and refuse its reduction or effective rate altered (UB27-10 1034, UB28-10 1035, UB66-10 1064)', () => {
    const reduced = reducedNote();
    // Hand figures: 0.10 x 0.40 = 0.04% of 2193.83 = 0.88; CBS 0.90 x 0.40 = 0.36% = 7.90.
    expect(reduced).toContain('<gIBSUF><pIBSUF>0.10</pIBSUF><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.04</pAliqEfet></gRed><vIBSUF>0.88</vIBSUF>');
    expect(verdict(reduced)).toBeNull();
    expect(reformRejection(nfeFacts(reduced.replace('<pRedAliq>60.00</pRedAliq><pAliqEfet>0.04</pAliqEfet>', '<pRedAliq>50.00</pRedAliq><pAliqEfet>0.05</pAliqEfet>')))?.cStat).toBe(1034);
    expect(verdict(reduced.replace('<pAliqEfet>0.04</pAliqEfet></gRed><vIBSUF>0.88', '<pAliqEfet>0.05</pAliqEfet></gRed><vIBSUF>1.10'))).toBe(1035);
    expect(reformRejection(nfeFacts(reduced.replace('<pAliqEfet>0.36</pAliqEfet></gRed><vCBS>7.90', '<pAliqEfet>0.40</pAliqEfet></gRed><vCBS>8.78')))?.cStat).toBe(1064);
  });

  it('refuse gDif a CST forbids (UB22-10 1029, UB59-20 1090) and a deferred value off (UB23-10 1031)', () => {
    const dif = (v: string) => `<gDif><pDif>100.00</pDif><vDif>${v}</vDif></gDif>`;
    expect(verdict(xml.replace('<pIBSUF>0.10</pIBSUF><vIBSUF>2.19', `<pIBSUF>0.10</pIBSUF>${dif('2.19')}<vIBSUF>0.00`))).toBe(1029);
    expect(reformRejection(nfeFacts(xml.replace('<pCBS>0.90</pCBS><vCBS>19.74', `<pCBS>0.90</pCBS>${dif('19.74')}<vCBS>0.00`)))?.cStat).toBe(1090);
    // CST 510 (deferral) requires gDif: 2193.83 x 0.10% x 100% = 2.19, sent 1.19.
    const deferred = item1(xml, `<IBSCBS><CST>510</CST><cClassTrib>510001</cClassTrib><gIBSCBS>${G1.replace('<pIBSUF>0.10</pIBSUF><vIBSUF>2.19', `<pIBSUF>0.10</pIBSUF>${dif('1.19')}<vIBSUF>1.00`)}</gIBSCBS></IBSCBS>`);
    expect(reformRejection(nfeFacts(deferred))?.cStat).toBe(1031);
    expect(reformRejection(nfeFacts(item1(xml, `<IBSCBS><CST>510</CST><cClassTrib>510001</cClassTrib><gIBSCBS>${G1}</gIBSCBS></IBSCBS>`)))?.cStat).toBe(1030);
  });

  it('refuse, from 04/01/2027, a Simples Nacional item without IBSCBS (UB12-10 1115), not in 2026', () => {
    const simples: Issuer = { ...NUMERIC_ISSUER, crt: 1 };
    const y2027 = build(simples, new Date('2027-01-15T15:00:00Z'));
    const stripped = item1(y2027, '');
    expect(reformRejection(nfeFacts(stripped))).toMatchObject({ cStat: 1115, xMotivo: 'Rejeição: IBS/CBS não informado [nItem: 1]' });
    expect(verdict(stripped, new Date('2027-01-15T15:00:05Z'))).toBe(1115);
    // A Simples note of 2026 carries no group at all and passes (docs/fiscal/tax-reform.md).
    expect(verdict(build(simples))).toBeNull();
  });
});

describe('with the official tables in force (fiscal/reform: cClassTrib 2026-06-22, rates of LC 214/2025)', () => {
  it('pass the gateway\'s notes and refuse CST 200 / 200030 without gRed (1033), CST 410 with gIBSCBS (1021), pIBSUF 0.05 in 2026 (1026)', () => {
    const mine = useReformTables((date) => viewOf(reformTablesInForce(), date));
    try {
      const xml = build();
      expect(verdict(xml)).toBeNull();
      expect(verdict(reducedNote())).toBeNull();
      for (const rule of ['UB26-20', 'UB13-20', 'UB18-10']) expect(reformRejection(nfeFacts(REFORM_BREAKERS[rule]!.edit(xml)))?.cStat, rule).toBe(reformRule(rule).cStat);
    } finally {
      useReformTables(mine);
    }
  });
});

describe('every enforced reform rule', () => {
  const bases = { normal: build(), reduced: reducedNote(), simples: build({ ...NUMERIC_ISSUER, crt: 1 }, new Date('2027-01-15T15:00:00Z')) };

  it('has a breaking edit of a valid note, refused with its code and the NT\'s words naming the item', () => {
    expect(Object.keys(REFORM_BREAKERS).sort()).toEqual(ENFORCED_REFORM_RULES.map((e) => e.rule).sort());
    for (const e of ENFORCED_REFORM_RULES) {
      const b = REFORM_BREAKERS[e.rule]!;
      const r = reformRejection(nfeFacts(b.edit(bases[b.base])));
      const words = reformRule(e.rule).message + (reformRule(e.rule).scope === 'item' ? ' [nItem: 1]' : '');
      expect(r && { cStat: r.cStat, xMotivo: r.xMotivo }, e.rule).toEqual({ cStat: e.code, xMotivo: words });
    }
  });
});

describe('the reform rule registry', () => {
  it('lists every rule of the table once: enforced (with the table\'s code, in the file named) or not, with why', () => {
    const enforced = ENFORCED_REFORM_RULES.map((e) => e.rule);
    const notEnforced = Object.values(REFORM_NOT_ENFORCED).flatMap((r) => r.rules);
    expect([...enforced, ...notEnforced].sort()).toEqual(REFORM_RULES.map((r) => r.id).sort());
    for (const e of ENFORCED_REFORM_RULES) {
      expect(reformRule(e.rule).cStat, e.rule).toBe(e.code);
      expect(readFileSync(new URL(`../${e.where}`, import.meta.url), 'utf8'), `${e.where} holds ${e.rule}`).toContain(`'${e.rule}'`);
    }
  });
});

