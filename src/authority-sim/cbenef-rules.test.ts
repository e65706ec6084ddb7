import { describe, expect, it } from 'vitest';
import { cbenefRejection } from './cbenef-rules.js';
import type { NfeFacts } from './nfe-facts.js';

// docs/fiscal/cbenef.md: MOC N12-85 (930) where the state applies it; RJ lists CST 20, 30, 40 and 70 from 2019-10-01.
const det = (n: number, cst: string, cBenef?: string) =>
  `<det nItem="${n}"><prod><cProd>1</cProd><NCM>09012100</NCM>${cBenef ? `<cBenef>${cBenef}</cBenef>` : ''}<CFOP>5102</CFOP></prod>` +
  `<imposto><ICMS><ICMS${cst}><orig>0</orig><CST>${cst}</CST></ICMS${cst}></ICMS></imposto></det>`;
const facts = (cUF: string, dets: string, mod = '55', dhEmi = '2026-06-10T10:00:00-03:00') =>
  ({ xml: `<NFe><infNFe>${dets}</infNFe></NFe>`, cUF, mod, dhEmi }) as unknown as NfeFacts;

describe('cBenef required by the state (MOC N12-85, 930)', () => {
  it('RJ: CST 40 without cBenef is 930 naming the item; with it, or CST 00, or CST 90 (not read), passes', () => {
    const r = cbenefRejection(facts('33', det(1, '00') + det(2, '40')));
    expect(r).toMatchObject({ cStat: 930, xMotivo: 'Rejeição: CST com benefício fiscal e não informado o código de benefício fiscal [nItem:2]' });
    expect(cbenefRejection(facts('33', det(1, '00') + det(2, '40', 'RJ800001')))).toBeNull();
    expect(cbenefRejection(facts('33', det(1, '90')))).toBeNull();
  });

  it('not in a state outside the table, not in an NFC-e, not before the state began', () => {
    expect(cbenefRejection(facts('35', det(1, '40')))).toBeNull();
    expect(cbenefRejection(facts('33', det(1, '40'), '65'))).toBeNull();
    expect(cbenefRejection(facts('33', det(1, '40'), '55', '2019-09-30T10:00:00-03:00'))).toBeNull();
  });
});
