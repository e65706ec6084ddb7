import { el, leaf, optLeaf } from '../xml-text.js';
import { money } from './format.js';
import type { DetPagModel } from './model.js';

// An NFC-e without home delivery has no freight (modFrete 9) and no carrier (MOC X02-10, X03-10; 753, 754).
export const TRANSP_XML = el('transp', leaf('modFrete', '9'));

function detPagXml(p: DetPagModel): string {
  const card = p.card
    ? el('card', leaf('tpIntegra', p.card.tpIntegra) + optLeaf('CNPJ', p.card.CNPJ) + optLeaf('tBand', p.card.tBand) + optLeaf('cAut', p.card.cAut))
    : '';
  return el('detPag', leaf('tPag', p.tPag) + optLeaf('xPag', p.xPag) + money('vPag', p.vPag) + card);
}

/** pag: mandatory for NFC-e; sum(vPag) - vTroco = vNF (767). */
export function pagXml(detPag: readonly DetPagModel[], vTroco: number): string {
  return el('pag', detPag.map(detPagXml).join('') + (vTroco > 0 ? money('vTroco', vTroco) : ''));
}
