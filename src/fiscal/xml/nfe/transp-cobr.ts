import { formatScaled } from '../../../kernel/decimal.js';
import { el, leaf, optLeaf } from '../xml-text.js';
import { money } from './format.js';
import type { AutXmlModel, CobrModel, ExportaModel, TranspModel, VolModel } from './model-55.js';

// Model 55 groups the NFC-e never carries (autXML, vehicle and volumes of transp, cobr, exporta) and
// transp, which an NFC-e carries with a carrier only for home delivery (MOC X02-10, X03-10/20).

export function autXmlXml(list: readonly AutXmlModel[]): string {
  return list.map((a) => el('autXML', a.CNPJ !== undefined ? leaf('CNPJ', a.CNPJ) : leaf('CPF', a.CPF ?? ''))).join('');
}

/** TDec_1203: weight with 3 decimals. */
const weight = (name: string, grams: number | undefined): string => (grams === undefined ? '' : leaf(name, formatScaled(grams, 3)));

function volXml(v: VolModel): string {
  return el(
    'vol',
    (v.qVol !== undefined ? leaf('qVol', v.qVol) : '') +
      optLeaf('esp', v.esp) +
      optLeaf('marca', v.marca) +
      optLeaf('nVol', v.nVol) +
      weight('pesoL', v.pesoL) +
      weight('pesoB', v.pesoB),
  );
}

export function transpXml(m: TranspModel): string {
  const t = m.transporta;
  const carrier = t
    ? el(
        'transporta',
        (t.CNPJ !== undefined ? leaf('CNPJ', t.CNPJ) : optLeaf('CPF', t.CPF)) +
          optLeaf('xNome', t.xNome) +
          optLeaf('IE', t.IE) +
          optLeaf('xEnder', t.xEnder) +
          optLeaf('xMun', t.xMun) +
          optLeaf('UF', t.UF),
      )
    : '';
  const v = m.veicTransp;
  const vehicle = v ? el('veicTransp', leaf('placa', v.placa) + optLeaf('UF', v.UF) + optLeaf('RNTC', v.RNTC)) : '';
  return el('transp', leaf('modFrete', m.modFrete) + carrier + vehicle + m.vol.map(volXml).join(''));
}

export function cobrXml(m: CobrModel): string {
  const f = m.fat;
  // MOC Y01-20 (905): with cobr, nFat, vOrig and vLiq are informed.
  const fat = f ? el('fat', leaf('nFat', f.nFat) + money('vOrig', f.vOrig) + money('vDesc', f.vDesc) + money('vLiq', f.vLiq)) : '';
  return el('cobr', fat + m.dup.map((d) => el('dup', leaf('nDup', d.nDup) + leaf('dVenc', d.dVenc) + money('vDup', d.vDup))).join(''));
}

/** exporta (MOC ZA01-ZA04): UFSaidaPais, xLocExporta, xLocDespacho. */
export function exportaXml(m: ExportaModel): string {
  return el('exporta', leaf('UFSaidaPais', m.UFSaidaPais) + leaf('xLocExporta', m.xLocExporta) + optLeaf('xLocDespacho', m.xLocDespacho));
}
