import { el, leaf, optLeaf } from '../xml-text.js';
import { combXml } from './comb.js';
import { medXml, rastroXml } from './med-rastro.js';
import { veicProdXml } from './veic-prod.js';
import { money, optMoney, quantity, unitValue } from './format.js';
import type { DetExportModel, DetModel } from './model.js';
import { diXml, iiXml } from './import-xml.js';
import { ibsCbsXml, isXml } from './taxes/ibscbs.js';
import { icmsNormalXml } from './taxes/icms-normal.js';
import { icmsSimplesXml } from './taxes/icms-simples.js';
import { icmsUfDestXml, ipiXml } from './taxes/ipi.js';
import { pisCofinsXml } from './taxes/pis-cofins.js';

function detExportXml(d: DetExportModel): string {
  const ind = d.exportInd;
  return el('detExport', optLeaf('nDraw', d.nDraw) + (ind ? el('exportInd', leaf('nRE', ind.nRE) + leaf('chNFe', ind.chNFe) + quantity('qExport', ind.qExport)) : ''));
}

function prodXml(m: DetModel): string {
  return el(
    'prod',
    leaf('cProd', m.cProd) +
      leaf('cEAN', m.cEAN) +
      leaf('xProd', m.xProd) +
      leaf('NCM', m.NCM) +
      optLeaf('CEST', m.CEST) +
      optLeaf('cBenef', m.cBenef) +
      leaf('CFOP', m.CFOP) +
      leaf('uCom', m.uCom) +
      quantity('qCom', m.qCom) +
      unitValue('vUnCom', m.vUnCom) +
      money('vProd', m.vProd) +
      // Taxable unit = commercial unit for a retail sale.
      leaf('cEANTrib', m.cEAN) +
      leaf('uTrib', m.uCom) +
      quantity('qTrib', m.qCom) +
      unitValue('vUnTrib', m.vUnCom) +
      optMoney('vFrete', m.vFrete) +
      optMoney('vSeg', m.vSeg) +
      optMoney('vDesc', m.vDesc) +
      optMoney('vOutro', m.vOutro) +
      leaf('indTot', '1') +
      // prod/DI (0..100) follows indTot, before detExport (leiauteNFe_v4.00.xsd).
      (m.di ? m.di.map(diXml).join('') : '') +
      // prod/detExport (0..500) follows indTot and DI, before xPed, nFCI and rastro (leiauteNFe_v4.00.xsd).
      (m.detExport ? detExportXml(m.detExport) : '') +
      // prod/rastro (0..500) sits between nFCI and the closing choice; docs/fiscal/medicines.md.
      (m.rastro ? rastroXml(m.rastro) : '') +
      // prod's closing choice (veicProd | med | arma | comb | nRECOPI) follows indTot and its optional groups.
      (m.veicProd ? veicProdXml(m.veicProd) : '') +
      (m.comb ? combXml(m.comb) : '') +
      (m.med ? medXml(m.med) : ''),
  );
}

function impostoXml(m: DetModel): string {
  const reform = (m.is ? isXml(m.is) : '') + (m.ibscbs ? ibsCbsXml(m.ibscbs) : '');
  // NT 2025.002-RTC B25-80 (1001): a credit or debit note's item has no ICMS, IPI, PIS, COFINS nor ICMSUFDest.
  if (m.reformOnly) return el('imposto', (m.vTotTrib !== undefined ? money('vTotTrib', m.vTotTrib) : '') + reform);
  const icms = m.icms.code.length === 3 ? icmsSimplesXml(m.icms) : icmsNormalXml(m.icms);
  return el(
    'imposto',
    (m.vTotTrib !== undefined ? money('vTotTrib', m.vTotTrib) : '') +
      el('ICMS', icms) +
      (m.ipi ? ipiXml(m.ipi) : '') +
      // imposto/II follows IPI in the XSD's sequence (ICMS, IPI, II).
      (m.ii ? iiXml(m.ii) : '') +
      (m.pis ? pisCofinsXml('PIS', m.pis) : '') +
      (m.cofins ? pisCofinsXml('COFINS', m.cofins) : '') +
      (m.icmsUfDest ? icmsUfDestXml(m.icmsUfDest) : '') +
      reform,
  );
}

export function detXml(m: DetModel): string {
  return el('det', prodXml(m) + impostoXml(m) + optLeaf('infAdProd', m.infAdProd), [['nItem', String(m.nItem)]]);
}
