import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENFORCED_NFE_RULES, ENFORCED_NFSE_RULES } from '../src/authority-sim/enforced-rules.js';
import { buildPreparedNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import type { Sale } from '../src/documents/nfce/domain/sale.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { buildPreparedDps, prepareNfse } from '../src/documents/nfse/domain/index.js';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import type { FieldError } from '../src/fiscal/layout/field-rules.js';
import { generateTestPfx } from './support/generate-certificate.js';
import { setOtherCnpjKey, type GoodsBreaker, type GoodsBroken, type GoodsCase, type GoodsDoc } from './support/goods-breakers.js';
import { ALL_GOODS_BREAKERS, ALL_NFSE_BREAKERS } from './support/all-breakers.js';
import { ACROSS_THE_DATES } from './support/breakers-ide.js';
import { caseArb } from './support/nfce-arbitraries.js';
import { nfeCaseArb } from './support/nfe-arbitraries.js';
import { type NfseBreaker, type NfseBroken, type NfseCase, type NfseDoc } from './support/nfse-breakers.js';
import { nfseRequestArb } from './support/nfse-request-arbitraries.js';
import { drawBreaker, tableProblems, textAt, type Breaker } from './support/rule-breakers.js';
import { nfeVerdict, nfseVerdict } from './support/simulator-verdict.js';

// Fiscal truth (docs/fiscal/rule-table.md): random valid sales of each model are accepted by the
// gateway and authorized by the simulator's own rules (written apart from the gateway); each case
// then breaks one rule the simulator enforces, drawn from the breaker table (support/rule-breakers.ts):
// the gateway refuses the request naming the field and the rule, or - for a value no request can
// set - the simulator refuses the edited document with the rule's code. Every breaker is drawn.
// Signatures of the valid NFS-e and the schemas' own tools (xmllint, xmlsec1) are the other
// property tests' (nfce-, nfe-, nfse-property.test.ts).

const NFCE_RUNS = Number(process.env.FISCAL_TRUTH_NFCE_RUNS ?? 500);
const NFE_RUNS = Number(process.env.FISCAL_TRUTH_NFE_RUNS ?? 500);
const NFSE_RUNS = Number(process.env.FISCAL_TRUTH_NFSE_RUNS ?? 200);
// About 20 ms of CPU a case alone; a loaded 2-core machine takes several times that. Never less than 120 s.
const budget = (runs: number) => Math.max(120_000, runs * 200);
const SEED = Number(process.env.FISCAL_TRUTH_SEED ?? 29);

const key = (b: { rule: string; code: number | string }) => `${b.rule}/${b.code}`;
const refusal = (errors: FieldError[], field: string, rule: string) => errors.some((e) => e.field === field && e.rule === rule);

beforeAll(() => {
  // A certificate naming a CNPJ of another root than the issuers' (MOC F03 213, Anexo I E0718).
  const parsed = parsePfx(generateTestPfx('11222333000181', 'x', 2048, ACROSS_THE_DATES), 'x');
  setOtherCnpjKey({ privateKey: parsed.privateKey, certificateBase64: parsed.certificateBase64 });
});

describe('the breaker tables', () => {
  it('hold exactly one breaker or exclusion per rule the simulators enforce', () => {
    expect(tableProblems(ENFORCED_NFE_RULES, ALL_GOODS_BREAKERS)).toEqual([]);
    expect(tableProblems(ENFORCED_NFSE_RULES, ALL_NFSE_BREAKERS)).toEqual([]);
  });
});

describe('the rules excluded as shadowed are shadowed', () => {
  const [nfce] = fc.sample(caseArb().filter(({ ctx }) => ctx.tpEmis !== 9), { numRuns: 1, seed: SEED });
  const nfceXml = buildPreparedNfce((prepareNfce(nfce!.sale, nfce!.ctx) as { ok: true; nfce: Parameters<typeof buildPreparedNfce>[0] }).nfce, nfce!.ctx).xml;
  const nfceVerdict = (xml: string) => nfeVerdict(xml, { now: new Date(nfce!.ctx.emittedAt.getTime() + 2000), csc: nfce!.ctx.csc!, signature: false });

  it('B02-10 (226), ZX02-224 (396), ZX02-236 (398): the XSD refuses first (225)', () => {
    expect(nfceVerdict(nfceXml)).toBeNull();
    expect(nfceVerdict(nfceXml.replace(/<cUF>[0-9]{2}<\/cUF>/, '<cUF>99</cUF>').replace(/Id="NFe[0-9]{2}/, 'Id="NFe99'))).toBe(225);
    expect(nfceVerdict(nfceXml.replace('?p=', '?q='))).toBe(225);
    expect(nfceVerdict(nfceXml.replace(/(p=[0-9A-Z]{44}\|)[0-9]/, '$14'))).toBe(225);
  });

  it('I08-60 (520): a CFOP abroad to a UF other than EX is 727 (idDest 3) or 731 (idDest 1, 2) first', () => {
    const [abroad, inBrazil] = (['abroad', 'internal'] as const).map((kind) => {
      const [g] = fc.sample(nfeCaseArb().filter((x) => x.kind === kind && prepareNfe(x.req, x.ctx).ok), { numRuns: 1, seed: SEED });
      const p = prepareNfe(g!.req, g!.ctx) as { ok: true; nfe: Parameters<typeof buildPreparedNfe>[0] };
      return { xml: buildPreparedNfe(p.nfe, g!.doc).xml, now: new Date(g!.doc.emittedAt.getTime() + 2000) };
    });
    expect(nfeVerdict(abroad!.xml.replace(/(<enderDest>[\s\S]*?<UF>)EX</, '$1SP<').replace('<cMun>9999999</cMun>', '<cMun>3550308</cMun>'), { now: abroad!.now, signature: false })).toBe(727);
    expect(nfeVerdict(inBrazil!.xml.replace(/<CFOP>[15]/g, '<CFOP>7'), { now: inBrazil!.now, signature: false })).toBe(731);
  });

  it('I08-90 (523): an interstate CFOP within one state is 772 (idDest 2, E12-30/50) or 732 (idDest 1) first', () => {
    const [g] = fc.sample(nfeCaseArb().filter((x) => x.kind === 'internal' && prepareNfe(x.req, x.ctx).ok && x.req.destinatario.cnpj !== x.ctx.issuer.cnpj), { numRuns: 1, seed: SEED });
    const p = prepareNfe(g!.req, g!.ctx) as { ok: true; nfe: Parameters<typeof buildPreparedNfe>[0] };
    const xml = buildPreparedNfe(p.nfe, g!.doc).xml.replace(/<CFOP>([15])/g, (_, f: string) => `<CFOP>${Number(f) + 1}`);
    const now = new Date(g!.doc.emittedAt.getTime() + 2000);
    expect(nfeVerdict(xml.replace('<idDest>1</idDest>', '<idDest>2</idDest>'), { now, signature: false })).toBe(772);
    expect(nfeVerdict(xml, { now, signature: false })).toBe(732);
  });
});

type Refusal = { ok: false; errors: FieldError[] } | { ok: true };
type Verdict<B> = (broken: B, signature: boolean) => number | string | null;

/** Breaks the case with `b` and checks who refuses it; a message on disagreement, null when right. */
function tryBreaker<C, D, B>(b: Breaker<C, D, B>, c: C, d: D, prepare: (c: C) => Refusal, verdict: Verdict<B>): string | null {
  if (b.kind === 'request') {
    const field = b.break(c);
    const r = prepare(c);
    if (r.ok) return `${key(b)}: the gateway accepted the broken request`;
    return refusal(r.errors, field, b.rule) ? null : `${key(b)}: expected ${field} with rule ${b.rule}, got ${JSON.stringify(r.errors)}`;
  }
  if (b.kind !== 'document') return `${key(b)} is excluded`;
  const got = verdict(b.break(d, c), b.signature === true);
  return got === b.code ? null : `${key(b)}: the simulator answered ${got}`;
}

function applicable<C, D, B, T extends Breaker<C, D, B>>(table: readonly T[], c: C, d: D, model?: 55 | 65): T[] {
  return table.filter((b) => {
    if (b.kind === 'excluded' || (model && 'models' in b && !(b.models as readonly number[]).includes(model))) return false;
    return b.kind === 'request' ? (b.applies?.(c) ?? true) : (b.applies?.(c, d) ?? true);
  });
}

function undrawn(table: readonly (GoodsBreaker | NfseBreaker)[], counts: Map<string, number>, model?: 55 | 65): string[] {
  return table.filter((b) => b.kind !== 'excluded' && (!model || !('models' in b) || (b.models as readonly number[]).includes(model)) && !counts.get(key(b))).map(key);
}

const cents = (xml: string) => Math.round(Number(textAt(xml, ['ICMSTot', 'vNF'])) * 100);

describe('fiscal truth: accepted => authorized, broken rule => refused naming it', () => {
  it(`NFC-e: ${NFCE_RUNS} random sales`, () => {
    const counts = new Map<string, number>();
    // The first disagreement of each breaker: all of them reported at once, not only the first.
    const problems = new Map<string, string>();
    fc.assert(
      fc.property(caseArb(), fc.nat(), ({ sale, ctx }, pick) => {
        const prepared = prepareNfce(sale, ctx);
        if (!prepared.ok) expect(prepared.errors).toEqual([]);
        if (!prepared.ok) return;
        const built = buildPreparedNfce(prepared.nfce, ctx);
        const xml = built.xml;
        const at = (late: number) => new Date(ctx.emittedAt.getTime() + late);
        expect(nfeVerdict(xml, { now: at(2000), csc: ctx.csc!, signature: true })).toBeNull();
        const c: GoodsCase = { model: 65, req: structuredClone(sale), issuer: ctx.issuer, tpAmb: ctx.tpAmb, offline: ctx.tpEmis === 9, vNF: cents(xml) };
        const d: GoodsDoc = { xml, pl009: built.schemaPackage === 'PL_009', rebuild: (signingKey) => buildPreparedNfce(prepared.nfce, { ...ctx, signingKey }).xml };
        const b = drawBreaker(applicable<GoodsCase, GoodsDoc, GoodsBroken, GoodsBreaker>(ALL_GOODS_BREAKERS, c, d, 65), counts, pick)!;
        const problem = tryBreaker(b, c, d, (x: GoodsCase) => prepareNfce(x.req as Sale, ctx), (broken: { xml: string; payload?: string; lateByMs?: number; authorizer?: 'state' | 'SVC-AN' | 'SVC-RS' }, signature) =>
          nfeVerdict(broken.xml, { now: at(broken.lateByMs ?? 2000), csc: ctx.csc!, signature, ...(broken.payload ? { payload: broken.payload } : {}), ...(broken.authorizer ? { authorizer: broken.authorizer } : {}) }));
        if (problem) problems.set(key(b), problem);
      }),
      { numRuns: NFCE_RUNS, seed: SEED },
    );
    expect([...problems.values()]).toEqual([]);
    expect(undrawn(ALL_GOODS_BREAKERS, counts, 65)).toEqual([]);
  }, budget(NFCE_RUNS));

  it(`NF-e: ${NFE_RUNS} random sales`, () => {
    const counts = new Map<string, number>();
    // The first disagreement of each breaker: all of them reported at once, not only the first.
    const problems = new Map<string, string>();
    fc.assert(
      fc.property(nfeCaseArb(), fc.nat(), ({ req, ctx, doc }, pick) => {
        const prepared = prepareNfe(req, ctx);
        if (!prepared.ok) expect(prepared.errors).toEqual([]);
        if (!prepared.ok) return;
        const built = buildPreparedNfe(prepared.nfe, doc);
        const xml = built.xml;
        const at = (late: number) => new Date(doc.emittedAt.getTime() + late);
        expect(nfeVerdict(xml, { now: at(2000), signature: true })).toBeNull();
        const c: GoodsCase = { model: 55, req: structuredClone(req), issuer: ctx.issuer, tpAmb: ctx.tpAmb, offline: false, vNF: cents(xml) };
        const d: GoodsDoc = { xml, pl009: built.schemaPackage === 'PL_009', rebuild: (signingKey) => buildPreparedNfe(prepared.nfe, { ...doc, signingKey }).xml };
        const b = drawBreaker(applicable<GoodsCase, GoodsDoc, GoodsBroken, GoodsBreaker>(ALL_GOODS_BREAKERS, c, d, 55), counts, pick)!;
        const problem = tryBreaker(b, c, d, (x: GoodsCase) => prepareNfe(x.req as NfeRequest, ctx), (broken: { xml: string; payload?: string; lateByMs?: number; authorizer?: 'state' | 'SVC-AN' | 'SVC-RS' }, signature) =>
          nfeVerdict(broken.xml, { now: at(broken.lateByMs ?? 2000), signature, ...(broken.payload ? { payload: broken.payload } : {}), ...(broken.authorizer ? { authorizer: broken.authorizer } : {}) }));
        if (problem) problems.set(key(b), problem);
      }),
      { numRuns: NFE_RUNS, seed: SEED },
    );
    expect([...problems.values()]).toEqual([]);
    expect(undrawn(ALL_GOODS_BREAKERS, counts, 55)).toEqual([]);
  }, budget(NFE_RUNS));

  it(`NFS-e: ${NFSE_RUNS} random services`, () => {
    const counts = new Map<string, number>();
    // The first disagreement of each breaker: all of them reported at once, not only the first.
    const problems = new Map<string, string>();
    fc.assert(
      fc.property(nfseRequestArb(), fc.nat(), ({ req, ctx, doc }, pick) => {
        const prepared = prepareNfse(req, ctx);
        if (!prepared.ok) expect(prepared.errors).toEqual([]);
        if (!prepared.ok) return;
        const xml = buildPreparedDps(prepared.dps, doc).xml;
        // Received two seconds after the emission (dhProc, E0008).
        const now = new Date(doc.emittedAt.getTime() + 2000);
        expect(nfseVerdict(xml, { signature: false, now })).toBeNull();
        const c: NfseCase = { req: structuredClone(req), ctx };
        const d: NfseDoc = { xml, rebuild: (signingKey) => buildPreparedDps(prepared.dps, { ...doc, signingKey }).xml };
        const b = drawBreaker(applicable<NfseCase, NfseDoc, NfseBroken, NfseBreaker>(ALL_NFSE_BREAKERS, c, d), counts, pick)!;
        const problem = tryBreaker(b, c, d, (x: NfseCase) => prepareNfse(x.req, ctx), (broken: { xml: string; body?: string }, signature) =>
          nfseVerdict(broken.xml, { signature, now, ...(broken.body ? { body: broken.body } : {}) }));
        if (problem) problems.set(key(b), problem);
      }),
      { numRuns: NFSE_RUNS, seed: SEED },
    );
    expect([...problems.values()]).toEqual([]);
    expect(undrawn(ALL_NFSE_BREAKERS, counts)).toEqual([]);
  }, budget(NFSE_RUNS));
});
