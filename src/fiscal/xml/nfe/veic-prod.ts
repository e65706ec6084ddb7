import { el, leaf } from '../xml-text.js';

// prod/veicProd of leiauteNFe_v4.00.xsd (PL_009_V4 and PL_010: the same sequence), one arm of prod's closing
// choice (veicProd | med | arma | comb | nRECOPI); docs/fiscal/vehicles-and-foreign-trade.md. Every element
// is required by the XSD and written in its order; values arrive as the layout's strings.

/** prod/veicProd: the new-vehicle group (MOC group J), all strings as the XSD types them. */
export interface VeicProdModel {
  tpOp: string;
  chassi: string;
  cCor: string;
  xCor: string;
  pot: string;
  cilin: string;
  pesoL: string;
  pesoB: string;
  nSerie: string;
  tpComb: string;
  nMotor: string;
  CMT: string;
  dist: string;
  anoMod: string;
  anoFab: string;
  tpPint: string;
  tpVeic: string;
  espVeic: string;
  VIN: string;
  condVeic: string;
  cMod: string;
  cCorDENATRAN: string;
  lota: string;
  tpRest: string;
}

/** The XSD's sequence of veicProd. */
export const VEIC_PROD_ORDER: ReadonlyArray<keyof VeicProdModel> = [
  'tpOp', 'chassi', 'cCor', 'xCor', 'pot', 'cilin', 'pesoL', 'pesoB', 'nSerie', 'tpComb', 'nMotor', 'CMT', 'dist',
  'anoMod', 'anoFab', 'tpPint', 'tpVeic', 'espVeic', 'VIN', 'condVeic', 'cMod', 'cCorDENATRAN', 'lota', 'tpRest',
];

export function veicProdXml(v: VeicProdModel): string {
  return el('veicProd', VEIC_PROD_ORDER.map((name) => leaf(name, v[name])).join(''));
}
