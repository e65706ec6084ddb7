import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { nfseKeyCheckDigit } from '../src/fiscal/xml/nfse/dps-id.js';
import type { DpsSignatureProfileName } from '../src/fiscal/xml/nfse/sign-dps.js';
import { verifyNfseDocument } from '../src/fiscal/xml/nfse/sign-dps.js';
import { signPedRegEvento } from '../src/fiscal/xml/nfse/sign-event.js';
import { writePedRegEvento, type PedRegEventoModel } from '../src/fiscal/xml/nfse/write-event.js';
import { CAPITALS, cpfArb, numericCnpjArb } from './support/nfce-arbitraries.js';
import { xmllintFailures, xmlsecFailures } from './support/nfce-checks.js';
import { testSigningKey } from './support/nfce-fixtures.js';

// Random valid NFS-e event requests (101101 cancellation, 101103 analysis request; docs/fiscal/nfse-national.md#events) -> signed
// with both DPS profiles -> checked by tools we did not write: xmllint with pedRegEvento_v1.01.xsd and
// xmlsec1; and by our verifier. Short reasons are refused before a byte is written.

const RUNS = Number(process.env.NFSE_EVENT_PROPERTY_RUNS ?? 300);
const BUDGET_MS = Math.max(60_000, RUNS * 2 * 120);
const PROFILES: DpsSignatureProfileName[] = ['rsa-sha1-c14n', 'rsa-sha256-exc-c14n'];
const dir = mkdtempSync(join(tmpdir(), 'nfse-event-property-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
const two = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));
// TSString characters, the ones the writer must escape among them; blanks only inside.
const TEXT_CHARS = [...'abcXYZ019 &<>"\'çãéÁÜ°ºª§¿ÿ-/.,;:()'];
const reasonArb = (min: number, max: number) =>
  fc.array(fc.constantFrom(...TEXT_CHARS), { minLength: min, maxLength: max, size: 'max' }).map((cs) => {
    const s = cs.join('');
    return s.length === 0 ? s : (s[0] === ' ' ? 'x' : s[0]) + s.slice(1, -1) + (s.length > 1 ? (s.at(-1) === ' ' ? 'y' : s.at(-1)) : '');
  });
const dateTimeArb = fc
  .tuple(fc.integer({ min: 2026, max: 2030 }), two(1, 12), two(1, 28), two(0, 23), two(0, 59), two(0, 59), fc.constantFrom('-02:00', '-03:00', '-04:00', '-05:00'))
  .map(([y, mo, d, h, mi, s, off]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${off}`);
// docs/fiscal/nfse-national.md#access-key: cMun + ambGer + inscription type + CPF/CNPJ(14) + nNFSe(13) + AAMM + cNum(9) + DV.
const keyArb = fc
  .tuple(fc.constantFrom(...Object.values(CAPITALS).map(([code]) => code)), fc.constantFrom('1', '2'), fc.oneof(cpfArb.map((c) => '1000' + c), numericCnpjArb.map((c) => '2' + c)), digits(13), two(26, 30), two(1, 12), digits(9))
  .map(([cMun, ambGer, inscription, nNFSe, yy, mm, cNum]) => {
    const body = cMun + ambGer + inscription + nNFSe + yy + mm + cNum;
    return body + nfseKeyCheckDigit(body);
  });

const modelArb = (reason: fc.Arbitrary<string>): fc.Arbitrary<PedRegEventoModel> =>
  fc.record({
    tpAmb: fc.constantFrom(1 as const, 2 as const),
    verAplic: fc.constantFrom('gateway-1.0.0', 'v1', 'fiscal gateway 2.3'),
    dhEvento: dateTimeArb,
    author: fc.oneof(numericCnpjArb.map((CNPJ) => ({ CNPJ })), cpfArb.map((CPF) => ({ CPF }))),
    chNFSe: keyArb,
    event: fc.record({ tpEvento: fc.constantFrom('101101' as const, '101103' as const), cMotivo: fc.constantFrom('1' as const, '2' as const, '9' as const), xMotivo: reason }),
  });

const chunks = (list: string[]) => Array.from({ length: Math.ceil(list.length / 250) }, (_, i) => list.slice(i * 250, i * 250 + 250));

describe('NFS-e event property: random valid requests become valid, signed pedRegEvento', () => {
  const files: string[] = [];
  const seen = { e101101: 0, e101103: 0, cnpj: 0, cpf: 0, short: 0, long: 0 };

  it(`signs ${RUNS} requests with both profiles; Id of 59 characters; our verifier agrees`, () => {
    fc.assert(
      fc.property(modelArb(reasonArb(15, 255)), (m) => {
        for (const profile of PROFILES) {
          const signed = signPedRegEvento(m, testSigningKey(), profile);
          expect(signed.id).toBe('PRE' + m.chNFSe + m.event.tpEvento);
          expect(signed.id).toHaveLength(59);
          const verified = verifyNfseDocument(signed.xml);
          expect(verified.valid, verified.detail).toBe(true);
          const file = join(dir, `ev-${files.length}.xml`);
          writeFileSync(file, signed.xml);
          files.push(file);
        }
        seen[`e${m.event.tpEvento}`]++;
        seen['CNPJ' in m.author ? 'cnpj' : 'cpf']++;
        if (m.event.xMotivo.length < 60) seen.short++;
        if (m.event.xMotivo.length > 200) seen.long++;
      }),
      { numRuns: RUNS },
    );
    expect(Object.values(seen).every((n) => n > RUNS / 20), JSON.stringify(seen)).toBe(true);
  }, BUDGET_MS);

  it('every request validates against pedRegEvento_v1.01.xsd (xmllint)', async () => {
    expect(files.length).toBe(RUNS * PROFILES.length);
    const results = await Promise.all(chunks(files).map((c) => xmllintFailures('NFSe_v1.01', c, 'pedRegEvento_v1.01.xsd')));
    expect(results.filter(Boolean).join('\n')).toBe('');
  }, BUDGET_MS);

  it('xmlsec1 verifies every signature of both profiles', async () => {
    expect(await xmlsecFailures(files, 250, ['infPedReg'])).toEqual([]);
  }, BUDGET_MS);

  it('a reason of fewer than 15 characters is refused before writing', () => {
    fc.assert(
      fc.property(modelArb(reasonArb(0, 14)), (m) => {
        expect(() => writePedRegEvento(m)).toThrow(/^xMotivo must/);
      }),
      { numRuns: 200 },
    );
  });
});
