import { sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { NfeFacts } from './nfe-facts.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on ICMS of each item (N), written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks.
// webservices/cstat.json has older words for 766 and lacks "Rejeição:" for 381-386: the messages
// are the rule rows', with the item number in the bracket.

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner ?? '';

const MESSAGES: Record<number, string> = {
  766: 'Rejeição: Item com CST indevido',
  383: 'Rejeição: Item com CSOSN indevido',
  381: 'Rejeição: Grupo de tributação ICMS90, informando dados do ICMS-ST',
  385: 'Rejeição: Grupo de tributação ICMSSN900, informando dados do ICMS-ST',
  382: 'Rejeição: CFOP não permitido para o CST informado',
  386: 'Rejeição: CFOP não permitido para o CSOSN informado',
  880: 'Rejeição: Percentual de FCP igual a zero',
  881: 'Rejeição: Percentual de FCPST igual a zero',
};
const reject = (cStat: number, nItem: string, detail: string): Rejection => ({ cStat, xMotivo: `${MESSAGES[cStat]} [nItem:${nItem}]`, detail });

// MOC N12-30 / N12a-20, exception 1: CST 90 and CSOSN 900 accepted "a critério da UF" (kept here).
// Exception 2 (emission before 2016-04-01 in production) cannot hold: the simulator refuses such dates first.
const NFCE_CSTS = new Set(['00', '20', '40', '41', '60', '90']);
const NFCE_CSOSNS = new Set(['102', '103', '300', '400', '500', '900']);
const SALE_CFOPS = new Set(['5101', '5102', '5103', '5104', '5115']);
const ST_CFOPS = new Set(['5405', '5656', '5667']);

interface IcmsItem {
  nItem: string;
  cfop: string;
  cst: string | null;
  csosn: string | null;
  modBCST: boolean;
  /** pFCP / pFCPST of the ICMS group, as written, or null. */
  pFCP: string | null;
  pFCPST: string | null;
}

function icmsItems(xml: string): IcmsItem[] {
  return sliceAll(xml, 'det').map((det) => {
    const icms = el(el(det, 'imposto'), 'ICMS');
    const group = icms ? /^\s*<(?:[A-Za-z0-9]+:)?([A-Za-z0-9]+)[\s>]/.exec(icms.inner)?.[1] : undefined;
    const g = group ? el(icms, group) : null;
    const cst = el(g, 'CST');
    const csosn = el(g, 'CSOSN');
    const nItem = /\snItem\s*=\s*"([^"]*)"/.exec(det.outer.slice(0, det.outer.indexOf('>')))?.[1] ?? '';
    return { nItem, cfop: textIn(el(det, 'prod'), 'CFOP'), cst: cst?.inner ?? null, csosn: csosn?.inner ?? null, modBCST: el(g, 'modBCST') !== null, pFCP: el(g, 'pFCP')?.inner ?? null, pFCPST: el(g, 'pFCPST')?.inner ?? null };
  });
}

/** MOC N12-30 (766), N12-34 (381), N12-40 / N12-44 (382): the CST of an NFC-e item. */
function nfceCstRejection(i: IcmsItem, cst: string): Rejection | null {
  if (!NFCE_CSTS.has(cst)) return reject(766, i.nItem, `CST ${cst} in an NFC-e (MOC N12-30)`);
  if (cst === '90' && i.modBCST) return reject(381, i.nItem, 'ICMS90 with modBCST in an NFC-e (MOC N12-34)');
  if (cst === '60') return ST_CFOPS.has(i.cfop) ? null : reject(382, i.nItem, `CST 60 with CFOP ${i.cfop} (MOC N12-44)`);
  return SALE_CFOPS.has(i.cfop) ? null : reject(382, i.nItem, `CST ${cst} with CFOP ${i.cfop} (MOC N12-40)`);
}

/** MOC N12a-20 (383), N12a-34 (385), N12a-40 / N12a-44 (386): the CSOSN of an NFC-e item. */
function nfceCsosnRejection(i: IcmsItem, csosn: string): Rejection | null {
  if (!NFCE_CSOSNS.has(csosn)) return reject(383, i.nItem, `CSOSN ${csosn} in an NFC-e (MOC N12a-20)`);
  if (csosn === '900' && i.modBCST) return reject(385, i.nItem, 'ICMSSN900 with modBCST in an NFC-e (MOC N12a-34)');
  if (csosn === '500') return ST_CFOPS.has(i.cfop) ? null : reject(386, i.nItem, `CSOSN 500 with CFOP ${i.cfop} (MOC N12a-44)`);
  return SALE_CFOPS.has(i.cfop) ? null : reject(386, i.nItem, `CSOSN ${csosn} with CFOP ${i.cfop} (MOC N12a-40)`);
}

function nfceRejection(i: IcmsItem): Rejection | null {
  return i.cst !== null ? nfceCstRejection(i, i.cst) : i.csosn !== null ? nfceCsosnRejection(i, i.csosn) : null;
}

const isZero = (v: string | null) => v !== null && Number(v) === 0;

/** MOC N17b-10 (880, both models), N23b-10 (881, model 55): an FCP rate informed as zero (NT 2016.002). */
function fcpRejection(mod: string, i: IcmsItem): Rejection | null {
  if (isZero(i.pFCP)) return reject(880, i.nItem, 'pFCP 0 (MOC N17b-10)');
  if (mod === '55' && isZero(i.pFCPST)) return reject(881, i.nItem, 'pFCPST 0 (MOC N23b-10)');
  return null;
}

/** The first of these rules `f` breaks, or null. */
export function icmsRejection(f: NfeFacts, _ctx: ContentContext): Rejection | null {
  for (const i of icmsItems(f.xml)) {
    const r = (f.mod === '65' ? nfceRejection(i) : null) ?? fcpRejection(f.mod, i);
    if (r) return r;
  }
  return null;
}
