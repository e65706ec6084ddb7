import { DOMParser, type Element } from '@xmldom/xmldom';
import { municipality } from '../../fiscal/layout/ibge.js';
import { childOf, textAt } from './document-checks.js';
import { dpsFacts, type DpsFacts } from './dps-facts.js';
import { NfseRefusal } from './nfse-wire.js';

// Sefin Nacional Anexo I rules (RN DPS_NFS-e) on the substitution (subst) and the service (serv: locPrest,
// cServ, obra, atvEvento), written from the rule text (assets/fiscal/rules/nfse-anexo-i.json), independently
// of the gateway's own checks (documents/nfse/domain/validate-nfse.ts). Rules that need Sefin's registers
// (the national service list per municipality, the NBS and ISO2 country tables, the CEP register, the
// municipalities' parameters) are not played: the simulator has none of them.

/** E0370 / E0372: the national codes of construction work (LC 116 items 7.02 ... 7.19) whose DPS carries obra. */
export const OBRA_CODES: ReadonlySet<string> = new Set(['070201', '070202', '070401', '070501', '070502', '070601', '070602', '070701', '070801', '071701', '071901']);
/** 99.01.01 (no ISSQN nor ICMS) may carry obra or atvEvento (E0372, E0392 exceptions). */
const NO_TAX_CODE = '990101';

function checkSubstitution(inf: Element): void {
  const subst = childOf(inf, 'subst');
  if (!subst) return;
  // E0078: cMotivo 99 (other) needs xMotivo.
  if (textAt(subst, 'cMotivo') === '99' && textAt(subst, 'xMotivo') === undefined) throw new NfseRefusal('E0078', 'subst/cMotivo 99 without xMotivo');
}

/** E0382, E0386 (obra) / E0400, E0404 (atvEvento): the place's address is abroad exactly when the service is. */
function checkPlaceAddress(group: Element | undefined, abroad: boolean, codes: { cepAbroad: string; extAtHome: string }, tag: string): void {
  const end = group && childOf(group, 'end');
  if (!end) return;
  if (abroad && childOf(end, 'CEP')) throw new NfseRefusal(codes.cepAbroad, `${tag}/end/CEP with cPaisPrestacao`);
  if (!abroad && childOf(end, 'endExt')) throw new NfseRefusal(codes.extAtHome, `${tag}/end/endExt with cLocPrestacao`);
}

function checkService(inf: Element): void {
  const serv = childOf(inf, 'serv')!;
  const cLoc = textAt(serv, 'locPrest/cLocPrestacao');
  // E0302: a municipality of IBGE's table, or 0000000 (Águas Marítimas).
  if (cLoc !== undefined && cLoc !== '0000000' && !municipality(cLoc)) throw new NfseRefusal('E0302', `cLocPrestacao ${cLoc}`);
  const cPais = textAt(serv, 'locPrest/cPaisPrestacao');
  // E0304: a country other than Brazil (its existence in the ISO2 table is Sefin's table, not held here).
  if (cPais === 'BR') throw new NfseRefusal('E0304', 'cPaisPrestacao BR');
  const cTribNac = textAt(serv, 'cServ/cTribNac')!;
  // E0315: cTribMun 000 is not a municipal code.
  if (textAt(serv, 'cServ/cTribMun') === '000') throw new NfseRefusal('E0315', 'cTribMun 000');
  const cNBS = textAt(serv, 'cServ/cNBS');
  // E0318: the provider issuing (tpEmit 1) an export (taker or intermediary abroad, or cPaisPrestacao) gives the NBS item.
  const partyAbroad = (tag: string) => textAt(inf, `${tag}/end/endExt/cPais`) !== undefined;
  if (cNBS === undefined && textAt(inf, 'tpEmit') === '1' && (partyAbroad('toma') || partyAbroad('interm') || cPais !== undefined)) {
    throw new NfseRefusal('E0318', 'export of services without cNBS');
  }
  // E0322: any IBS/CBS information needs the NBS item.
  if (cNBS === undefined && childOf(inf, 'IBSCBS')) throw new NfseRefusal('E0322', 'IBSCBS without cNBS');
  const obra = childOf(serv, 'obra');
  // E0370 / E0372: obra exactly for the construction codes (and allowed with 99.01.01).
  if (OBRA_CODES.has(cTribNac) && !obra) throw new NfseRefusal('E0370', `cTribNac ${cTribNac} without obra`);
  if (obra && !OBRA_CODES.has(cTribNac) && cTribNac !== NO_TAX_CODE) throw new NfseRefusal('E0372', `obra with cTribNac ${cTribNac}`);
  checkPlaceAddress(obra, cPais !== undefined, { cepAbroad: 'E0382', extAtHome: 'E0386' }, 'obra');
  const atvEvento = childOf(serv, 'atvEvento');
  // E0390 / E0392: atvEvento exactly for LC 116 item 12 (events, shows; allowed with 99.01.01).
  const item12 = cTribNac.startsWith('12');
  if (item12 && !atvEvento) throw new NfseRefusal('E0390', `cTribNac ${cTribNac} without atvEvento`);
  if (atvEvento && !item12 && cTribNac !== NO_TAX_CODE) throw new NfseRefusal('E0392', `atvEvento with cTribNac ${cTribNac}`);
  checkPlaceAddress(atvEvento, cPais !== undefined, { cepAbroad: 'E0400', extAtHome: 'E0404' }, 'atvEvento');
}

/** Throws NfseRefusal with the first rule of subst and serv the DPS breaks. */
export function checkDpsService(dps: Element, _f: DpsFacts): void {
  const inf = childOf(dps, 'infDPS')!;
  checkSubstitution(inf);
  checkService(inf);
}

/**
 * E0060 (provider outside the Simples Nacional: dCompet, the LC 116 sub-item of cTribNac, cTribMun, the place of
 * provision) and E0061 (MEI or ME/EPP: the taker when the replaced DPS identified one, dCompet, vServ): what a
 * substitute keeps from the NFS-e it replaces (`replacedNfse`, the NFS-e with its DPS). Run by substitution.ts.
 */
export function checkSubstitutionChanges(replacedNfse: string, f: DpsFacts): void {
  const dps = new DOMParser().parseFromString(replacedNfse, 'text/xml').getElementsByTagNameNS('*', 'DPS')[0];
  if (!dps) return;
  const o = dpsFacts(dps as unknown as Element);
  const changed = (what: string, before: string | number | undefined, after: string | number | undefined) => `${what} ${before ?? '(none)'} -> ${after ?? '(none)'}`;
  if (f.opSimpNac === '1') {
    if (f.dCompet !== o.dCompet) throw new NfseRefusal('E0060', changed('dCompet', o.dCompet, f.dCompet));
    if (f.cTribNac.slice(0, 4) !== o.cTribNac.slice(0, 4)) throw new NfseRefusal('E0060', changed('cTribNac', o.cTribNac, f.cTribNac));
    if (f.cTribMun !== o.cTribMun) throw new NfseRefusal('E0060', changed('cTribMun', o.cTribMun, f.cTribMun));
    if (f.cLocPrestacao !== o.cLocPrestacao || f.cPaisPrestacao !== o.cPaisPrestacao) throw new NfseRefusal('E0060', changed('locPrest', o.cLocPrestacao ?? o.cPaisPrestacao, f.cLocPrestacao ?? f.cPaisPrestacao));
    return;
  }
  if (f.opSimpNac !== '2' && f.opSimpNac !== '3') return;
  if (o.tomaId !== undefined && f.tomaId !== o.tomaId) throw new NfseRefusal('E0061', changed('toma', o.tomaId, f.tomaId));
  if (f.dCompet !== o.dCompet) throw new NfseRefusal('E0061', changed('dCompet', o.dCompet, f.dCompet));
  if (f.values.vServ !== o.values.vServ) throw new NfseRefusal('E0061', changed('vServ', o.values.vServ / 100, f.values.vServ / 100));
}
