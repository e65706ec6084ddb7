// infNFSe/IBSCBS (TCRTCIBSCBS): what Sefin writes into the NFS-e of a DPS that carries IBSCBS (Anexo I E1515:
// the group is mandatory then). The place of incidence follows the operation indicator (Anexo C, checked by
// E1521); the values follow the XSD's formulas (fiscal/xml/nfse/ibscbs-values.ts) at the rates of the
// competence. docs/fiscal/nfse-reform.md.
import { municipality } from '../../fiscal/layout/ibge.js';
import { installedReformTables } from '../../fiscal/reform/installed-reform-tables.js';
import type { ReformTables } from '../../fiscal/reform/reform-tables.js';
import { nfseIbsCbsTerms } from '../../fiscal/xml/nfse/ibscbs-terms.js';
import { nfseIbsCbsValues, type NfseIbsCbsRate, type NfseIbsCbsValues } from '../../fiscal/xml/nfse/ibscbs-values.js';
import { el, leaf } from '../../fiscal/xml/xml-text.js';
import { formatCents } from '../../kernel/decimal.js';
import type { DpsFacts } from './dps-facts.js';
import type { NfseValues } from './nfse-values.js';

/**
 * Anexo C (IndOp, v1.01 2026-01-22; docs/fiscal/nfse-reform.md): the operations whose place is the acquirer's
 * domicile (the taker, toma/end), the recipient's (IBSCBS/dest when indDest is 1, else the taker), the provider's
 * establishment (cLocEmi); every other indicator the gateway may send takes the place of provision (cLocPrestacao).
 */
const AT_ACQUIRER = new Set(['030102', '050102', '100101', '100301', '100501']);
const AT_RECIPIENT = new Set(['030103', '050103', '100102', '100201', '100302', '100401', '100502', '100601']);
const AT_PROVIDER = new Set(['030101', '050101']);

/** The municipality of incidence, or undefined when the address the indicator names is abroad or absent. */
export function placeOfIncidence(f: DpsFacts): string | undefined {
  const g = f.ibsCbs!;
  if (AT_ACQUIRER.has(g.cIndOp)) return g.tomaMun;
  if (AT_RECIPIENT.has(g.cIndOp)) return g.indDest === '1' ? g.destMun : g.tomaMun;
  if (AT_PROVIDER.has(g.cIndOp)) return f.cLocEmi;
  return f.cLocPrestacao;
}

/**
 * The values of the NFS-e's IBS/CBS group, or undefined when the simulator cannot compute them: the rates and
 * reductions of the classification on the competence come from the reform tables (without them, CST 000 at the
 * 2026 rates only; fiscal/xml/nfse/ibscbs-terms.ts).
 */
export function nfseIbsCbsOf(f: DpsFacts, v: NfseValues, tables: ReformTables | undefined): NfseIbsCbsValues | undefined {
  const g = f.ibsCbs;
  const terms = g && nfseIbsCbsTerms(tables, g.CST, g.cClassTrib, f.dCompet);
  if (!g || !terms) return undefined;
  const parts = {
    dCompet: f.dCompet,
    vServ: f.values.vServ,
    vDescIncond: f.values.vDescIncond,
    vCalcReeRepRes: g.vReeRepRes,
    // The simulator has no municipal rate table: without DPS/pAliq it knows no ISSQN (nfse-values.ts).
    vISSQN: v.vISSQN ?? 0,
    vPis: f.values.vPis,
    vCofins: f.values.vCofins,
  };
  return nfseIbsCbsValues(parts, terms.rates, v.vLiq, terms.reduction);
}

const money = (name: string, cents: number) => leaf(name, formatCents(cents));
// TSDec2V2 / TSDec3V2: hundredths of a percent written with 2 decimals.
const rate = (name: string, hundredths: number) => leaf(name, formatCents(hundredths));

function rateGroup(tag: string, names: [string, string, string], r: NfseIbsCbsRate): string {
  return el(tag, rate(names[0], r.rate) + (r.reduction !== undefined ? rate(names[1], r.reduction) : '') + rate(names[2], r.effective));
}

/** TCRTCIBSCBS in XSD order: cLocalidadeIncid, xLocalidadeIncid, valores (vBC, vCalcReeRepRes, uf, mun, fed), totCIBS. */
export function ibsCbsXml(cLocalidadeIncid: string, x: NfseIbsCbsValues): string {
  const valores = el(
    'valores',
    money('vBC', x.vBC) +
      // Written also when zero, as on the NFS-e Sefin issued (test/fixtures/samples/nfse/nfse_v1.01_RJ_...).
      money('vCalcReeRepRes', x.vCalcReeRepRes) +
      rateGroup('uf', ['pIBSUF', 'pRedAliqUF', 'pAliqEfetUF'], x.uf) +
      rateGroup('mun', ['pIBSMun', 'pRedAliqMun', 'pAliqEfetMun'], x.mun) +
      rateGroup('fed', ['pCBS', 'pRedAliqCBS', 'pAliqEfetCBS'], x.fed),
  );
  const gIBS = el('gIBS', money('vIBSTot', x.vIBSTot) + el('gIBSUFTot', money('vIBSUF', x.vIBSUF)) + el('gIBSMunTot', money('vIBSMun', x.vIBSMun)));
  const totCIBS = el('totCIBS', money('vTotNF', x.vTotNF) + gIBS + el('gCBS', money('vCBS', x.vCBS)));
  const name = municipality(cLocalidadeIncid)?.name ?? `Município ${cLocalidadeIncid}`;
  return el('IBSCBS', leaf('cLocalidadeIncid', cLocalidadeIncid) + leaf('xLocalidadeIncid', name) + valores + totCIBS);
}

/** The group for the NFS-e of these facts, or '' when the DPS has none or the simulator cannot compute it. */
export function writeNfseIbsCbs(f: DpsFacts, v: NfseValues, tables: ReformTables | undefined = installedReformTables()): string {
  const values = nfseIbsCbsOf(f, v, tables);
  const place = values && placeOfIncidence(f);
  return values && place ? ibsCbsXml(place, values) : '';
}
