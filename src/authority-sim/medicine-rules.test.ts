import { describe, expect, it } from 'vitest';
import { sliceElement } from '../fiscal/sefaz/xml-slice.js';
import { medicineRejection } from './medicine-rules.js';

// docs/fiscal/medicines.md: MOC K01-20 (873) binds model 55 only; the row's words come from assets/fiscal/rules/moc-anexo-i.json.
const med = '<med><cProdANVISA>1012345670012</cProdANVISA><vPMC>14.90</vPMC></med>';
const rastro = '<rastro><nLote>L1</nLote><qLote>1</qLote><dFab>2025-01-10</dFab><dVal>2027-01-31</dVal></rastro>';
const prod = (inner: string) => sliceElement(`<prod><CFOP>5102</CFOP><indTot>1</indTot>${inner}</prod>`, 'prod');

describe('medicine group rule (MOC K01-20)', () => {
  it('an NF-e item with med and no rastro is refused with 873 and the item number; with rastro, or in an NFC-e, it passes', () => {
    expect(medicineRejection(prod(med), '2', '55')).toMatchObject({
      cStat: 873, xMotivo: 'Rejeição: Operação com medicamentos e não informado os campos de rastreabilidade [nItem:2]',
    });
    expect(medicineRejection(prod(rastro + med), '1', '55')).toBeNull();
    expect(medicineRejection(prod(med), '1', '65')).toBeNull();
    expect(medicineRejection(prod(''), '1', '55')).toBeNull();
  });
});
