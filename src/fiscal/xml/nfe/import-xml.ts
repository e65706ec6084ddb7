import { el, leaf, optLeaf } from '../xml-text.js';
import { money, optMoney } from './format.js';
import type { DiModel, IiModel } from './import-model.js';

// prod/DI and imposto/II of leiauteNFe_v4.00.xsd (docs/fiscal/vehicles-and-foreign-trade.md).

/** prod/DI in the XSD's sequence; the CNPJ/CPF choice of the buyer, then UFTerceiro. */
export function diXml(d: DiModel): string {
  const adi = d.adi.map((a) => el('adi', optLeaf('nAdicao', a.nAdicao) + leaf('nSeqAdic', a.nSeqAdic) + leaf('cFabricante', a.cFabricante) + optMoney('vDescDI', a.vDescDI) + optLeaf('nDraw', a.nDraw)));
  return el(
    'DI',
    leaf('nDI', d.nDI) + leaf('dDI', d.dDI) + leaf('xLocDesemb', d.xLocDesemb) + leaf('UFDesemb', d.UFDesemb) + leaf('dDesemb', d.dDesemb) + leaf('tpViaTransp', d.tpViaTransp) +
      (d.vAFRMM !== undefined ? money('vAFRMM', d.vAFRMM) : '') + leaf('tpIntermedio', d.tpIntermedio) + optLeaf('CNPJ', d.CNPJ) + optLeaf('CPF', d.CPF) + optLeaf('UFTerceiro', d.UFTerceiro) +
      leaf('cExportador', d.cExportador) + adi.join(''),
  );
}

/** imposto/II: every field is required by the XSD (TDec_1302, zero allowed). */
export const iiXml = (m: IiModel): string => el('II', money('vBC', m.vBC) + money('vDespAdu', m.vDespAdu) + money('vII', m.vII) + money('vIOF', m.vIOF));
