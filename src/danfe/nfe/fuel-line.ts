import { child, text, type XmlNode } from '../xml-node.js';

// The fuel group of an item (prod/comb, docs/fiscal/fuel.md) as one line printed under the item's
// description on the NF-e DANFE, with the item's infAdProd: the ANP code and, when the note has them,
// the pump readings (nozzle, pump, tank, start and end of the totalizer).

export function fuelLine(prod: XmlNode | undefined): string | undefined {
  const comb = child(prod, 'comb');
  const code = text(comb, 'cProdANP');
  if (code === undefined) return undefined;
  const parts = [`ANP ${code}`];
  const enc = child(comb, 'encerrante');
  if (enc) {
    const pump = text(enc, 'nBomba');
    parts.push(`BICO ${text(enc, 'nBico') ?? ''}${pump !== undefined ? ` BOMBA ${pump}` : ''} TANQUE ${text(enc, 'nTanque') ?? ''}`);
    parts.push(`ENCERRANTE ${text(enc, 'vEncIni') ?? ''} A ${text(enc, 'vEncFin') ?? ''}`);
  }
  return parts.join(' - ');
}

/** infAdProd with the fuel line before it (either may be absent). */
export function withFuelLine(prod: XmlNode | undefined, infAdProd: string | undefined): string | undefined {
  const fuel = fuelLine(prod);
  if (fuel === undefined) return infAdProd;
  return infAdProd === undefined ? fuel : `${fuel} - ${infAdProd}`;
}
