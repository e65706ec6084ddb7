import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { reformRejection } from '../src/authority-sim/reform-rules.js';
import { buildPreparedNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import { xmllintFailures } from './support/nfce-checks.js';
import { nfceContextOf, nfeContextsOf, reformSaleArb, type ReformSale } from './support/reform-arbitraries.js';
import { packageFolderOf, reformFiguresOf } from './support/reform-figures-xml.js';
import { nfeVerdict } from './support/simulator-verdict.js';

// Random reform sales (2026 and 2027; regime normal with and without reform_2026, Simples Nacional;
// NFC-e, NF-e to a shop, to a consumer, exports; CST / cClassTrib from the table in force on the date among
// those the gateway writes; discounts, freight, insurance, other charges) become notes that
// - the simulated authority authorizes: its NT 2025.002 reform rules and its whole verdict (signature included);
// - pass the schema package in force on their own dhEmi and environment (schema-packages.ts, xmllint);
// - add up, as read back with @xmldom/xmldom: IBSCBSTot is the sum of the items (NT W35-W56), vIBS = vIBSUF +
//   vIBSMun per item (UB54a-10) and in total, and vNFTot = sum of vItem (W60-10) = vNF + vIBS + vCBS + vIS from
//   2027, = vNF in 2025-2026 (VB01-10 Exceção 1);
// - carry the groups exactly when due: Simples Nacional none in 2026 (LC 214 art. 348), a legacy account none in
//   2026, everyone from 2027 (arts. 344, 347).

const RUNS = Number(process.env.REFORM_PROPERTY_RUNS ?? 80);
const SEED = Number(process.env.REFORM_PROPERTY_SEED ?? 30);
const dir = mkdtempSync(join(tmpdir(), 'reform-property-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function build(s: ReformSale): { xml: string; now: Date; csc?: { id: string; token: string } } {
  const now = new Date(s.emittedAt.getTime() + 2000);
  if (s.kind === 'nfce') {
    const ctx = nfceContextOf(s);
    const p = prepareNfce(s.sale, ctx);
    if (!p.ok) throw new Error(`${s.day} ${s.regime}: ${JSON.stringify(p.errors)}`);
    return { xml: buildPreparedNfce(p.nfce, ctx).xml, now, csc: ctx.csc! };
  }
  const { ctx, doc } = nfeContextsOf(s);
  const p = prepareNfe(s.req, ctx);
  if (!p.ok) throw new Error(`${s.day} ${s.regime} ${s.kind}: ${JSON.stringify(p.errors)}`);
  return { xml: buildPreparedNfe(p.nfe, doc).xml, now };
}

const sum = (xs: readonly (number | null)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);

describe('reform property: random sales of 2026 and 2027 are authorized, valid on their date and add up', () => {
  const files = new Map<string, string[]>();
  const seen = { codes: new Set<string>(), years: new Set<string>(), kinds: new Set<string>(), none: 0, groups: 0, reduced: 0, immune: 0, charges: 0 };

  it(`${RUNS} random sales`, () => {
    let n = 0;
    fc.assert(
      fc.property(reformSaleArb(), (s) => {
        const { xml, now, csc } = build(s);
        expect(reformRejection(nfeFacts(xml))).toBeNull();
        expect(nfeVerdict(xml, { now, signature: true, ...(csc ? { csc } : {}) })).toBeNull();
        const f = reformFiguresOf(xml);
        const year = Number(f.dhEmi.slice(0, 4));
        const due = year >= 2027 || (s.regime === 'normal-reform');
        if (!due) {
          expect(f.items.every((i) => i === null)).toBe(true);
          expect(f.total).toBeNull();
          expect(f.vNFTot).toBeNull();
          seen.none++;
        } else {
          expect(f.items.every((i) => i !== null)).toBe(true);
          const items = f.items.filter((i) => i !== null);
          for (const i of items) {
            if (i.vBC !== null) expect(i.vIBS).toBe((i.vIBSUF ?? 0) + (i.vIBSMun ?? 0));
            seen.codes.add(`${i.CST}/${i.cClassTrib}`);
            if (i.CST === '200') seen.reduced++;
            if (i.CST === '410') seen.immune++;
          }
          expect(f.total).toEqual({
            vBCIBSCBS: sum(items.map((i) => i.vBC)),
            vIBSUF: sum(items.map((i) => i.vIBSUF)),
            vIBSMun: sum(items.map((i) => i.vIBSMun)),
            vIBS: sum(items.map((i) => i.vIBS)),
            vCBS: sum(items.map((i) => i.vCBS)),
          });
          expect(f.total!.vIBS).toBe(f.total!.vIBSUF + f.total!.vIBSMun);
          const vIS = sum(f.itemIS);
          expect(f.vIS ?? 0).toBe(vIS);
          expect(f.vNFTot).toBe(f.vNF + (year >= 2027 ? f.total!.vIBS + f.total!.vCBS + vIS : 0));
          seen.groups++;
        }
        if (/<vFrete>[1-9]|<vSeg>[1-9]|<vOutro>[1-9]/.test(xml) && /<vDesc>[1-9]/.test(xml)) seen.charges++;
        seen.years.add(String(year));
        seen.kinds.add(`${s.kind}/${s.regime}`);
        const folder = packageFolderOf(f);
        const file = join(dir, `reform-${n++}.xml`);
        writeFileSync(file, xml);
        files.set(folder, [...(files.get(folder) ?? []), file]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The generator reaches what the issue names: both years, every kind and regime, the three CSTs, charges.
    expect([...seen.years].sort()).toEqual(['2026', '2027']);
    expect(seen.kinds.size).toBeGreaterThanOrEqual(10);
    expect(seen.none).toBeGreaterThan(RUNS / 20);
    expect(seen.groups).toBeGreaterThan(RUNS / 3);
    expect(seen.reduced).toBeGreaterThan(0);
    expect(seen.immune).toBeGreaterThan(0);
    expect(seen.codes.size).toBeGreaterThan(10);
    expect(seen.charges).toBeGreaterThan(0);
  }, 120_000);

  it('every note validates against the schema package in force on its date and environment', async () => {
    expect(sum([...files.values()].map((l) => l.length))).toBe(RUNS);
    const failures = await Promise.all([...files.entries()].map(([folder, list]) => xmllintFailures(folder as 'PL_010_V1.30' | 'PL_010_V1.40' | 'PL_009_V4', list)));
    expect(failures.filter(Boolean).join('\n')).toBe('');
  }, 120_000);
});
