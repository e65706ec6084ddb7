import { el, leaf } from '../xml-text.js';
import type { IdeModel } from './model.js';

// ide for an NFC-e: the fixed values below are NFC-e rules (docs/fiscal/nfce-rules.md), not defaults.
export function ideXml(m: IdeModel): string {
  return el(
    'ide',
    leaf('cUF', m.cUF) +
      leaf('cNF', m.cNF) +
      leaf('natOp', m.natOp) +
      leaf('mod', '65') +
      leaf('serie', m.serie) +
      leaf('nNF', m.nNF) +
      leaf('dhEmi', m.dhEmi) +
      // no dhSaiEnt: rejected for NFC-e (705)
      leaf('tpNF', '1') + // outbound only (706)
      leaf('idDest', '1') + // internal operation only (707)
      leaf('cMunFG', m.cMunFG) +
      leaf('tpImp', '4') + // DANFE NFC-e (709)
      leaf('tpEmis', m.tpEmis) +
      leaf('cDV', m.cDV) +
      leaf('tpAmb', m.tpAmb) +
      leaf('finNFe', '1') + // normal document (715)
      leaf('indFinal', '1') + // final consumer (716)
      leaf('indPres', m.indPres) + // 1 presential, 4 home delivery (717)
      // NT 2020.006: the intermediary indicator is required when the sale is not presential.
      (m.indPres === 4 ? leaf('indIntermed', '0') : '') +
      leaf('procEmi', '0') +
      leaf('verProc', m.verProc) +
      (m.contingency ? leaf('dhCont', m.contingency.dhCont) + leaf('xJust', m.contingency.xJust) : ''),
  );
}
