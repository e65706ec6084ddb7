// Anexo I rules of serv/comExt (docs/fiscal/exports-and-delivery.md), on a schema-valid DPS: an export
// of services carries comExt (E0330); Sefin refuses the "unknown" 0 codes (E0333, E0341, E0343, E0345)
// and checks the declarations of a temporary movement of goods (E0352, E0354, E0356). Written from the
// rule table apart from the gateway's checks (documents/nfse/domain).
import type { Element } from '@xmldom/xmldom';
import { childOf, textAt } from './document-checks.js';
import { NfseRefusal } from './nfse-wire.js';

const abroad = (party: Element | undefined): boolean => party !== undefined && textAt(party, 'end/endExt/cPais') !== undefined;

export function checkForeignTrade(dps: Element): void {
  const inf = childOf(dps, 'infDPS')!;
  const comExt = childOf(childOf(inf, 'serv')!, 'comExt');
  if (!comExt) {
    // E0330: tpEmit 1 and a taker or intermediary abroad, cPaisPrestacao, or tribISSQN 3.
    const exported =
      abroad(childOf(inf, 'toma')) ||
      abroad(childOf(inf, 'interm')) ||
      textAt(inf, 'serv/locPrest/cPaisPrestacao') !== undefined ||
      textAt(inf, 'valores/trib/tribMun/tribISSQN') === '3';
    if (textAt(inf, 'tpEmit') === '1' && exported) throw new NfseRefusal('E0330', 'an export of services without serv/comExt');
    return;
  }
  const t = (name: string) => textAt(comExt, name);
  if (t('mdPrestacao') === '0') throw new NfseRefusal('E0333');
  if (t('mecAFComexP') === '00') throw new NfseRefusal('E0341');
  if (t('mecAFComexT') === '00') throw new NfseRefusal('E0343');
  const mov = t('movTempBens');
  if (mov === '0') throw new NfseRefusal('E0345');
  if (mov === '2' && t('nDI') === undefined) throw new NfseRefusal('E0352');
  if (mov === '1' && (t('nDI') !== undefined || t('nRE') !== undefined)) throw new NfseRefusal('E0354');
  if (mov === '3' && t('nRE') === undefined) throw new NfseRefusal('E0356');
}
