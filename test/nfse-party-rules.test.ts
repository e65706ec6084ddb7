import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPreparedDps, prepareNfse } from '../src/documents/nfse/domain/index.js';
import { nfseRequestArb } from './support/nfse-request-arbitraries.js';
import { editAt, otherLastDigit, setText } from './support/rule-breakers.js';
import { nfseVerdict } from './support/simulator-verdict.js';

// The Sefin simulator's party rules (authority-sim/nfse/dps-party-rules.ts) on DPS the gateway would
// never send: the fiscal-truth property proves the gateway refuses these requests first, this file
// that the simulator refuses the documents too (Anexo I codes, written from the rule table).

const docs = fc
  .sample(nfseRequestArb(), { numRuns: 400, seed: 7 })
  .map(({ req, ctx, doc }) => {
    const prepared = prepareNfse(req, ctx);
    return prepared.ok ? { req, xml: buildPreparedDps(prepared.dps, doc).xml } : null;
  })
  .filter((d) => d !== null);
const verdict = (xml: string) => nfseVerdict(xml, { signature: false });
const withTaker = (tag: string) => docs.find((d) => new RegExp(`<toma><${tag}>`).test(d.xml))!;

describe('Sefin refuses the parties Anexo I refuses', () => {
  it('a valid DPS passes; a taker CNPJ or CPF with a wrong check digit is E0188 / E0206', () => {
    const cnpj = withTaker('CNPJ');
    expect(verdict(cnpj.xml)).toBeNull();
    expect(verdict(setText(cnpj.xml, ['infDPS', 'toma', 'CNPJ'], otherLastDigit))).toBe('E0188');
    const cpf = withTaker('CPF');
    expect(verdict(setText(cpf.xml, ['infDPS', 'toma', 'CPF'], otherLastDigit))).toBe('E0206');
  });

  it("the taker with the provider's CNPJ root is E0202; an unknown municipality E0238; a malformed e-mail E0247", () => {
    const d = docs.find((x) => /<prest><CNPJ>/.test(x.xml) && /<toma><CNPJ>/.test(x.xml) && /<toma>[\s\S]*<endNac>/.test(x.xml))!;
    const provider = /<prest><CNPJ>([0-9A-Z]{14})</.exec(d.xml)![1]!;
    expect(verdict(setText(d.xml, ['infDPS', 'toma', 'CNPJ'], () => provider))).toBe('E0202');
    expect(verdict(setText(d.xml, ['infDPS', 'toma', 'end', 'endNac', 'cMun'], () => '1234567'))).toBe('E0238');
    const mailed = docs.find((x) => /<toma>[\s\S]*<email>[\s\S]*<\/toma>/.test(x.xml))!;
    expect(verdict(setText(mailed.xml, ['infDPS', 'toma', 'email'], () => 'maria.example.com'))).toBe('E0247');
  });

  it('ISSQN withheld by the taker needs its CNPJ or CPF (E0204); by an intermediary that is absent, E0264', () => {
    const d = docs.find((x) => /<tpRetISSQN>1<\/tpRetISSQN>/.test(x.xml) && !x.xml.includes('<interm>'))!;
    expect(verdict(setText(d.xml, ['infDPS', 'valores', 'trib', 'tribMun', 'tpRetISSQN'], () => '3'))).toBe('E0264');
    const noTaker = d.xml.includes('<toma>') ? editAt(d.xml, ['infDPS', 'toma'], () => '') : d.xml;
    expect(verdict(setText(noTaker, ['infDPS', 'valores', 'trib', 'tribMun', 'tpRetISSQN'], () => '2'))).toBe('E0204');
  });
});
