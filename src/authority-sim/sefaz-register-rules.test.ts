import { describe, expect, it } from 'vitest';
import type { NfeFacts } from './nfe-facts.js';
import { sefazRegisterRejection } from './sefaz-register-rules.js';

const nfe = (...ceans: string[]) =>
  ({ xml: `<NFe><infNFe Id="NFe1">${ceans.map((c, i) => `<det nItem="${i + 1}"><prod><cProd>1</cProd>${c}<xProd>X</xProd></prod></det>`).join('')}</infNFe></NFe>` }) as NfeFacts;

describe('7I03-10 (889): cEAN is never empty', () => {
  it('refuses an empty cEAN, naming the item; accepts a GTIN and "SEM GTIN"', () => {
    expect(sefazRegisterRejection(nfe('<cEAN>SEM GTIN</cEAN>', '<cEAN>7891000315507</cEAN>'))).toBeNull();
    expect(sefazRegisterRejection(nfe('<cEAN>SEM GTIN</cEAN>', '<cEAN></cEAN>'))).toMatchObject({ cStat: 889, xMotivo: 'Rejeição: Obrigatória a informação do GTIN para o produto [nItem: 2]' });
    expect(sefazRegisterRejection(nfe('<cEAN/>'))?.cStat).toBe(889);
  });
});
