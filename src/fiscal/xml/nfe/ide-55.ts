import { el, leaf } from '../xml-text.js';
import { rate } from './format.js';
import type { NfeIdeModel } from './model-55.js';

// ide of an NF-e (model 55): every choice the NFC-e fixes (ide.ts) comes from the model here.
export function nfeIdeXml(m: NfeIdeModel): string {
  return el(
    'ide',
    leaf('cUF', m.cUF) +
      leaf('cNF', m.cNF) +
      leaf('natOp', m.natOp) +
      leaf('mod', '55') +
      leaf('serie', m.serie) +
      leaf('nNF', m.nNF) +
      leaf('dhEmi', m.dhEmi) +
      leaf('tpNF', m.tpNF) +
      leaf('idDest', m.idDest) +
      leaf('cMunFG', m.cMunFG) +
      leaf('tpImp', m.tpImp) +
      leaf('tpEmis', m.tpEmis) +
      leaf('cDV', m.cDV) +
      leaf('tpAmb', m.tpAmb) +
      leaf('finNFe', m.finNFe) +
      // XSD order (leiauteNFe PL_010): finNFe, tpNFDebito, tpNFCredito, indFinal.
      (m.tpNFDebito !== undefined ? leaf('tpNFDebito', m.tpNFDebito) : '') +
      (m.tpNFCredito !== undefined ? leaf('tpNFCredito', m.tpNFCredito) : '') +
      leaf('indFinal', m.indFinal) +
      leaf('indPres', m.indPres) +
      (m.indIntermed !== undefined ? leaf('indIntermed', m.indIntermed) : '') +
      leaf('procEmi', '0') +
      leaf('verProc', m.verProc) +
      (m.contingency ? leaf('dhCont', m.contingency.dhCont) + leaf('xJust', m.contingency.xJust) : '') +
      m.NFref.map((key) => el('NFref', leaf('refNFe', key))).join('') +
      // PL_010 v1.40 ide: ..., NFref, gCompraGov, gPagAntecipado.
      (m.gCompraGov ? el('gCompraGov', leaf('tpEnteGov', m.gCompraGov.tpEnteGov) + rate('pRedutor', m.gCompraGov.pRedutor) + leaf('tpOperGov', m.gCompraGov.tpOperGov)) : ''),
  );
}
