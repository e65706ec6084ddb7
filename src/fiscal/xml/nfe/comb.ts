import { el, leaf, optLeaf } from '../xml-text.js';
import { money } from './format.js';
import type { CombModel } from './model.js';

// prod/comb (leiauteNFe_v4.00.xsd, PL_009_V4 and PL_010: the same sequence): cProdANP, descANP, pGLP, pGNn,
// pGNi, vPart, CODIF, qTemp, UFCons, CIDE, encerrante, pBio, origComb. Values arrive formatted for their
// XSD types (documents/goods/domain/fuel-item.ts); docs/fiscal/fuel.md.

export function combXml(c: CombModel): string {
  const cide = c.CIDE ? el('CIDE', leaf('qBCProd', c.CIDE.qBCProd) + leaf('vAliqProd', c.CIDE.vAliqProd) + money('vCIDE', c.CIDE.vCIDE)) : '';
  const enc = c.encerrante
    ? el(
        'encerrante',
        leaf('nBico', c.encerrante.nBico) +
          optLeaf('nBomba', c.encerrante.nBomba) +
          leaf('nTanque', c.encerrante.nTanque) +
          leaf('vEncIni', c.encerrante.vEncIni) +
          leaf('vEncFin', c.encerrante.vEncFin),
      )
    : '';
  return el(
    'comb',
    leaf('cProdANP', c.cProdANP) +
      leaf('descANP', c.descANP) +
      optLeaf('pGLP', c.pGLP) +
      optLeaf('pGNn', c.pGNn) +
      optLeaf('pGNi', c.pGNi) +
      (c.vPart !== undefined ? money('vPart', c.vPart) : '') +
      optLeaf('CODIF', c.CODIF) +
      optLeaf('qTemp', c.qTemp) +
      leaf('UFCons', c.UFCons) +
      cide +
      enc +
      optLeaf('pBio', c.pBio),
  );
}
