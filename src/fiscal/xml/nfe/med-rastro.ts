import { el, leaf, optLeaf } from '../xml-text.js';
import { money } from './format.js';

// prod/rastro and prod/med of leiauteNFe_v4.00.xsd (PL_009_V4 and PL_010: the same sequences); docs/fiscal/medicines.md.
// rastro (0..500) follows nFCI inside prod, before infProdNFF and the closing choice; med is one arm of that
// choice (veicProd | med | arma | comb | nRECOPI).

/** prod/rastro: nLote (1-20), qLote (TDec_0803v, already written), dFab and dVal (TData AAAA-MM-DD), cAgreg (1-20). */
export interface RastroModel {
  nLote: string;
  qLote: string;
  dFab: string;
  dVal: string;
  cAgreg?: string;
}

/** prod/med: cProdANVISA ([0-9]{11}|[0-9]{13}|ISENTO), xMotivoIsencao (1-255) when ISENTO, vPMC in cents (TDec_1302). */
export interface MedModel {
  cProdANVISA: string;
  xMotivoIsencao?: string;
  vPMC: number;
}

export const RASTRO_MAX = 500;

export function rastroXml(batches: readonly RastroModel[]): string {
  return batches
    .map((b) => el('rastro', leaf('nLote', b.nLote) + leaf('qLote', b.qLote) + leaf('dFab', b.dFab) + leaf('dVal', b.dVal) + optLeaf('cAgreg', b.cAgreg)))
    .join('');
}

export function medXml(m: MedModel): string {
  return el('med', leaf('cProdANVISA', m.cProdANVISA) + optLeaf('xMotivoIsencao', m.xMotivoIsencao) + money('vPMC', m.vPMC));
}
