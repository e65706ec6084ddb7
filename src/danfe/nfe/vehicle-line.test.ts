import { describe, expect, it } from 'vitest';
import { parseXml, path } from '../xml-node.js';
import { vehicleLine, withVehicleLine } from './vehicle-line.js';

// docs/fiscal/vehicles-and-foreign-trade.md: prod/veicProd printed under the item's description on the NF-e DANFE.

const prodOf = (inner: string) => path(parseXml(`<det><prod><cProd>1</cProd>${inner}</prod></det>`), 'det', 'prod');
const VEIC =
  '<veicProd><tpOp>1</tpOp><chassi>9BWZZZ377VT004251</chassi><cCor>0040</cCor><xCor>BRANCO CRISTAL</xCor><pot>116</pot><cilin>999</cilin>' +
  '<pesoL>1025</pesoL><pesoB>1480</pesoB><nSerie>AB1234</nSerie><tpComb>16</tpComb><nMotor>CSS123456</nMotor><CMT>1.4800</CMT><dist>2566</dist>' +
  '<anoMod>2027</anoMod><anoFab>2026</anoFab><tpPint>M</tpPint><tpVeic>06</tpVeic><espVeic>1</espVeic><VIN>N</VIN><condVeic>1</condVeic>' +
  '<cMod>110435</cMod><cCorDENATRAN>04</cCorDENATRAN><lota>5</lota><tpRest>1</tpRest></veicProd>';

describe('the vehicle line of the NF-e DANFE', () => {
  it('the chassis, colour, years, engine, RENAVAM model, fuel, power, displacement and the restriction in words', () => {
    expect(vehicleLine(prodOf(VEIC))).toBe(
      'Chassi: 9BWZZZ377VT004251 Cor: BRANCO CRISTAL Ano Mod/Fab: 2027/2026 Motor: CSS123456 Marca/Modelo: 110435 Comb: 16 Pot: 116 CV Cil: 999 cc Restrição: Alienação Fiduciária',
    );
    expect(withVehicleLine(prodOf(VEIC), 'Garantia 3 anos')).toMatch(/Alienação Fiduciária - Garantia 3 anos$/);
  });

  it('nothing for an item without the group', () => {
    expect(vehicleLine(prodOf(''))).toBeUndefined();
    expect(withVehicleLine(prodOf(''), 'texto')).toBe('texto');
  });
});
