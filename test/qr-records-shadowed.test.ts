import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPreparedNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import { caseArb } from './support/nfce-arbitraries.js';
import { nfeVerdict } from './support/simulator-verdict.js';

// The QR code rules of MOC 7.0 group ZX that the breaker table (support/breakers-qr-records.ts)
// excludes as shadowed: "Nota: O Schema XML faz esta verificação". A version 2 QR code without one
// of its parameters, or with a digest or hash that is not hexadecimal, fails the XSD pattern of
// infNFeSupl/qrCode, so the simulator answers 225 before the QR rules (396/400) are reached.

const SEED = 29;

function v2Document(offline: boolean) {
  const [g] = fc.sample(caseArb().filter(({ ctx }) => (ctx.tpEmis === 9) === offline && ctx.tpAmb === 1), { numRuns: 1, seed: SEED });
  const prepared = prepareNfce(g!.sale, g!.ctx);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
  const xml = buildPreparedNfce(prepared.nfce, g!.ctx).xml;
  const verdict = (x: string) => nfeVerdict(x, { now: new Date(g!.ctx.emittedAt.getTime() + 2000), csc: g!.ctx.csc!, signature: false });
  /** The document with `p=` parameter `i` replaced. */
  const withParam = (i: number, value: string) =>
    xml.replace(/\?p=([^<]*)<\/qrCode>/, (_, p: string) => {
      const ps = p.split('|');
      ps[i] = value;
      return `?p=${ps.join('|')}</qrCode>`;
    });
  return { xml, verdict, withParam };
}

describe('the version 2 QR rules the XSD checks first (225)', () => {
  it('online: ZX02-232 (version), ZX02-240 (tpAmb), ZX02-300 (idCSC), ZX02-312 (hash), ZX02-316 (hash not hex)', () => {
    const { xml, verdict, withParam } = v2Document(false);
    expect(xml).toMatch(/\?p=[0-9A-Z]{44}\|2\|1\|[0-9]+\|[0-9A-F]{40}</);
    expect(verdict(xml)).toBeNull();
    for (const [i, value] of [[1, ''], [2, ''], [3, ''], [4, ''], [4, 'G'.repeat(40)]] as const) expect(verdict(withParam(i, value)), `${i}=${value}`).toBe(225);
  });

  it('offline: ZX02-260 (day), ZX02-272 (vNF), ZX02-288 (digest), ZX02-292 (digest not hex)', () => {
    const { xml, verdict, withParam } = v2Document(true);
    expect(xml).toMatch(/\?p=[0-9A-Z]{44}\|2\|1\|[0-9]{2}\|[0-9.]+\|[0-9a-f]{56}\|[0-9]+\|[0-9A-F]{40}</);
    expect(verdict(xml)).toBeNull();
    for (const [i, value] of [[3, ''], [4, ''], [5, ''], [5, 'z'.repeat(56)], [6, ''], [7, '']] as const) expect(verdict(withParam(i, value)), `${i}=${value}`).toBe(225);
  });
});
