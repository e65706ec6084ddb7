import { describe, expect, it } from 'vitest';
import { parseXml, path } from '../xml-node.js';
import { medicineLine, withMedicineLine } from './medicine-line.js';

// docs/fiscal/medicines.md: prod/rastro and prod/med printed under the item's description on the NF-e DANFE.

const prodOf = (inner: string) => path(parseXml(`<det><prod><cProd>1</cProd>${inner}</prod></det>`), 'det', 'prod');

describe('the medicine line of the NF-e DANFE', () => {
  it('each batch with its quantity, manufacturing and expiry dates in dd/mm/aaaa, then the ANVISA registration and the PMC', () => {
    const prod = prodOf('<rastro><nLote>00123</nLote><qLote>1.500</qLote><dFab>2025-01-10</dFab><dVal>2027-01-31</dVal></rastro>' +
      '<rastro><nLote>L2</nLote><qLote>2.000</qLote><dFab>2025-02-10</dFab><dVal>2027-02-28</dVal><cAgreg>7891</cAgreg></rastro>' +
      '<med><cProdANVISA>1012345670012</cProdANVISA><vPMC>1234.50</vPMC></med>');
    expect(medicineLine(prod)).toBe('Lote: 00123 Qtd: 1,5 Fab: 10/01/2025 Val: 31/01/2027 - Lote: L2 Qtd: 2 Fab: 10/02/2025 Val: 28/02/2027 - ANVISA: 1012345670012 PMC: R$ 1.234,50');
    expect(withMedicineLine(prod, 'Uso adulto')).toMatch(/PMC: R\$ 1\.234,50 - Uso adulto$/);
  });

  it('an exempt medicine without batches; nothing for an item without either group', () => {
    expect(medicineLine(prodOf('<med><cProdANVISA>ISENTO</cProdANVISA><xMotivoIsencao>RDC 98/2016</xMotivoIsencao><vPMC>9.50</vPMC></med>'))).toBe('ANVISA: ISENTO (RDC 98/2016) PMC: R$ 9,50');
    expect(medicineLine(prodOf(''))).toBeUndefined();
    expect(withMedicineLine(prodOf(''), 'texto')).toBe('texto');
  });
});
