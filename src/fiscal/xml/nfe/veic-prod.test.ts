import { describe, expect, it } from 'vitest';
import { VEIC_PROD_ORDER, veicProdXml, type VeicProdModel } from './veic-prod.js';

// leiauteNFe_v4.00.xsd, prod/veicProd: the 24 elements, all required, in this order.
const XSD_SEQUENCE = 'tpOp chassi cCor xCor pot cilin pesoL pesoB nSerie tpComb nMotor CMT dist anoMod anoFab tpPint tpVeic espVeic VIN condVeic cMod cCorDENATRAN lota tpRest';

describe('prod/veicProd', () => {
  it('writes every element in the XSD sequence, text escaped', () => {
    expect(VEIC_PROD_ORDER.join(' ')).toBe(XSD_SEQUENCE);
    const model = Object.fromEntries(VEIC_PROD_ORDER.map((n) => [n, n === 'xCor' ? 'PRETO & PRATA' : n.slice(0, 2).toUpperCase()])) as unknown as VeicProdModel;
    const xml = veicProdXml(model);
    expect([...xml.matchAll(/<([A-Za-z]+)>[^<]*<\/\1>/g)].map((m) => m[1]).join(' ')).toBe(XSD_SEQUENCE);
    expect(xml).toContain('<xCor>PRETO &amp; PRATA</xCor>');
    expect(xml.startsWith('<veicProd><tpOp>TP</tpOp>')).toBe(true);
  });
});
