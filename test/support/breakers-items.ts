import { itemValue } from '../../src/documents/goods/domain/totals.js';
import type { ImportDeclaration } from '../../src/documents/nfe/domain/import-declaration.js';
import { sliceAll } from '../../src/fiscal/sefaz/xml-slice.js';
import { BOTH, COMPUTED, last, nfe, NFCE, NFE, op, WRITTEN, type GoodsBreaker, type GoodsCase } from './goods-breakers.js';
import { setText, textAt } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-items.ts (see rule-breakers.ts for the three kinds).

const NOT_WRITTEN = (group: string) => `the gateway never writes ${group}; no request field adds it`;

/** `xml` with the `k`-th det (0-based) replaced by `edit(outer)`. */
function editDet(xml: string, k: number, edit: (det: string) => string): string {
  const det = sliceAll(xml, 'det')[k];
  if (!det) throw new Error(`no det ${k + 1}`);
  return xml.slice(0, det.start) + edit(det.outer) + xml.slice(det.start + det.outer.length);
}
const firstDet = (xml: string, edit: (det: string) => string) => editDet(xml, 0, edit);
/** One element's text inside a det replaced. */
const setIn = (det: string, tag: string, value: string) => det.replace(new RegExp(`<${tag}>[^<]*</${tag}>`), `<${tag}>${value}</${tag}>`);
/** A group placed at the end of prod (the gateway writes nothing after indTot). */
const endOfProd = (group: string) => (det: string) => det.replace('</prod>', `${group}</prod>`);
/** indEscala (and CNPJFab) after CEST, which they need (the XSD sequence CEST, indEscala, CNPJFab). */
const withScale = (tail: string) => (det: string) =>
  det.includes('<CEST>') ? det.replace(/(<CEST>[^<]*<\/CEST>)/, `$1${tail}`) : det.replace('</NCM>', `</NCM><CEST>1700100</CEST>${tail}`);

/** The last item made an import with one declaration, valid but for what `o` changes: cleared on the day of emission, by road, on the issuer's own account. */
function importItem(c: GoodsCase, o: Partial<Pick<ImportDeclaration, 'cleared_on' | 'transport_mode' | 'intermediation' | 'buyer_cnpj' | 'third_party_uf'>> & { cfop?: string }): void {
  const item = nfe(c).items[last(c)]!;
  const day = new Date().toISOString().slice(0, 10);
  const { cfop, ...di } = o;
  item.cfop = cfop ?? '3102';
  item.import_declarations = [{
    number: '2412345678', registered_on: day, clearance_place: 'SANTOS', clearance_uf: 'SP', cleared_on: day, transport_mode: '7', intermediation: '1',
    exporter_code: 'EXP1', additions: [{ number: '1', sequence: '1', manufacturer_code: 'FAB1' }], ...di,
  }];
  item.import_tax = { base: 100, customs_expenses: 0, value: 14, iof: 0 };
}

/** Index of the first det carrying ICMSUFDest, -1 when none. */
const difalDet = (xml: string) => sliceAll(xml, 'det').findIndex((d) => d.outer.includes('<ICMSUFDest>'));
const onDifal = (xml: string, edit: (det: string) => string) => editDet(xml, difalDet(xml), edit);
/** Money text plus two cents (beyond the MOC's tolerance of R$ 0.01). */
const plusTwoCents = (det: string, tag: string) => det.replace(new RegExp(`<${tag}>([^<]*)</${tag}>`), (_, v: string) => `<${tag}>${((Math.round(Number(v) * 100) + 2) / 100).toFixed(2)}</${tag}>`);

const noBatches = (c: GoodsCase) => c.req.items[last(c)]!.batches === undefined;
/** One batch on the last item with the dates given; the field of the date the refusal must name. */
function withBatch(c: GoodsCase, dates: { manufactured_on: string; expires_on: string }, field: 'manufactured_on' | 'expires_on'): string {
  c.req.items[last(c)]!.batches = [{ number: 'L1', quantity: 1, ...dates }];
  return `items[${last(c)}].batches[0].${field}`;
}

const SOUTH_SOUTHEAST_BUT_ES = new Set(['SP', 'RJ', 'MG', 'PR', 'SC', 'RS']);
const isSaleCfop = (cfop: string) => /^6[14][0-9]{2}$/.test(cfop);
const noRefs = (c: GoodsCase) => (nfe(c).referenced_documents ?? []).length === 0;

export const ITEMS_BREAKERS: readonly GoodsBreaker[] = [
  // GA: authorized downloaders (NF-e request field aut_xml; the NFC-e request has none)
  { kind: 'request', rule: 'GA02-10', code: 323, models: NFE, break: (c) => ((nfe(c).aut_xml = ['11222333000180']), 'aut_xml[0]') },
  { kind: 'request', rule: 'GA03-10', code: 325, models: NFE, break: (c) => ((nfe(c).aut_xml = ['52998224726']), 'aut_xml[0]') },
  { kind: 'request', rule: 'GA03-20', code: 326, models: NFE, applies: (c) => nfe(c).destinatario.cpf !== undefined, break: (c) => ((nfe(c).aut_xml = [nfe(c).destinatario.cpf!]), 'aut_xml[0]') },
  // H: item number
  { kind: 'document', rule: 'H02-10', code: 927, models: BOTH, why: COMPUTED, applies: (c) => c.req.items.length < 990, break: (d) => ({ xml: d.xml.replace('<det nItem="1"', '<det nItem="990"') }) },
  // I: products
  { kind: 'request', rule: 'I03-10', code: 611, models: BOTH, break: (c) => ((c.req.items[last(c)]!.gtin = '7891000315508'), `items[${last(c)}].gtin`) },
  { kind: 'request', rule: 'I03-30', code: 883, models: BOTH, break: (c) => ((c.req.items[last(c)]!.gtin = ''), `items[${last(c)}].gtin`) },
  { kind: 'request', rule: 'I05-10', code: 777, models: BOTH, break: (c) => ((c.req.items[last(c)]!.ncm = '09'), `items[${last(c)}].ncm`) },
  { kind: 'request', rule: 'I05-24', code: 471, models: BOTH, applies: (c) => c.model === 65 || nfe(c).finalidade !== 'ajuste', break: (c) => ((c.req.items[last(c)]!.ncm = '00'), `items[${last(c)}].ncm`) },
  { kind: 'document', rule: 'I05e-10', code: 879, models: BOTH, why: NOT_WRITTEN('indEscala'), break: (d) => ({ xml: firstDet(d.xml, withScale('<indEscala>N</indEscala>')) }) },
  { kind: 'document', rule: 'I05e-20', code: 489, models: BOTH, why: NOT_WRITTEN('CNPJFab'), break: (d) => ({ xml: firstDet(d.xml, withScale('<indEscala>N</indEscala><CNPJFab>11222333000180</CNPJFab>')) }) },
  { kind: 'request', rule: 'I08-150', code: 725, models: NFCE, break: (c) => ((c.req.items[last(c)]!.cfop = '5949'), `items[${last(c)}].cfop`) },
  { kind: 'request', rule: 'I08-160', code: 374, models: NFCE, break: (c) => ((c.req.items[last(c)]!.cfop = '5933'), `items[${last(c)}].cfop`) },
  {
    kind: 'document', rule: 'I08-170', code: 374, models: NFCE, why: NOT_WRITTEN('ISSQN (an item taxed by the municipality)'),
    // ISSQN takes the place of ICMS (imposto: choice of ICMS or ISSQN); cMunFG is the issuer's city.
    break: (d) => ({ xml: firstDet(d.xml, (det) => det.replace(/<ICMS>[\s\S]*?<\/ICMS>/, `<ISSQN><vBC>0.00</vBC><vAliq>0.0000</vAliq><vISSQN>0.00</vISSQN><cMunFG>${textAt(d.xml, ['ide', 'cMunFG'])}</cMunFG><cListServ>01.01</cListServ><indISS>1</indISS><indIncentivo>2</indIncentivo></ISSQN>`)) }),
  },
  {
    kind: 'request', rule: 'I08-184', code: 701, models: NFE, applies: (c) => noRefs(c) && op(c).idDest !== 3,
    break: (c) => ((c.req.items[last(c)]!.cfop = op(c).idDest === 1 ? '5929' : '6929'), `items[${last(c)}].cfop`),
  },
  { kind: 'request', rule: 'I08-190', code: 701, models: NFE, applies: noRefs, break: (c) => ((c.req.items[last(c)]!.cfop = '7501'), `items[${last(c)}].cfop`) },
  // cEANTrib: the gateway writes the item's GTIN in both cEAN and cEANTrib (the taxable unit is the commercial one).
  { kind: 'document', rule: 'I12-10', code: 612, models: BOTH, why: WRITTEN, break: (d) => ({ xml: firstDet(d.xml, (det) => setIn(setIn(det, 'cEAN', 'SEM GTIN'), 'cEANTrib', '7891000315508')) }) },
  { kind: 'document', rule: 'I12-30', code: 885, models: BOTH, why: WRITTEN, break: (d) => ({ xml: firstDet(d.xml, (det) => setIn(setIn(det, 'cEAN', '7891000315507'), 'cEANTrib', 'SEM GTIN')) }) },
  { kind: 'document', rule: 'I12-40', code: 886, models: BOTH, why: WRITTEN, break: (d) => ({ xml: firstDet(d.xml, (det) => setIn(setIn(det, 'cEAN', 'SEM GTIN'), 'cEANTrib', '7891000315507')) }) },
  { kind: 'document', rule: 'I12-60', code: 888, models: BOTH, why: WRITTEN, break: (d) => ({ xml: firstDet(d.xml, (det) => setIn(setIn(det, 'cEAN', 'SEM GTIN'), 'cEANTrib', '')) }) },
  {
    kind: 'document', rule: 'I13-20', code: 854, models: BOTH, why: NOT_WRITTEN('comb (fuel)'),
    break: (d) => ({ xml: firstDet(d.xml, (det) => endOfProd('<comb><cProdANP>210203001</cProdANP><descANP>GLP</descANP><UFCons>SP</UFCons></comb>')(setIn(det, 'uTrib', 'UN'))) }),
  },
  {
    kind: 'request', rule: 'I17-10', code: 483, models: BOTH,
    break: (c) => {
      const item = c.req.items[last(c)]!;
      item.discount = (itemValue(item.quantity, item.unit_price).vProd + 1) / 100;
      return `items[${last(c)}].discount`;
    },
  },
  {
    kind: 'document', rule: 'I17b-10', code: 774, models: NFCE, why: WRITTEN,
    // The total vProd follows (W07-10 sums the items with indTot 1 and is checked first).
    break: (d) => {
      const vProd = textAt(d.xml, ['det', 'prod', 'vProd'])!;
      const xml = setText(firstDet(d.xml, (det) => setIn(det, 'indTot', '0')), ['total', 'ICMSTot', 'vProd'], (v) => ((Math.round(Number(v) * 100) - Math.round(Number(vProd) * 100)) / 100).toFixed(2));
      return { xml };
    },
  },
  // prod/DI and imposto/II (items[].import_declarations, import_tax; docs/fiscal/vehicles-and-foreign-trade.md):
  // the last item turns into an import (CFOP 3102, or the drawback 3127) with one declaration, broken as each rule says.
  ...(
    [
      ['I23-10', 376, { cleared_on: '2099-01-01' }, 'cleared_on'],
      ['I23b-10', 330, { transport_mode: '1' }, 'afrmm'],
      ['I23d-10', 331, { intermediation: '2', third_party_uf: 'SP' }, 'buyer_cnpj'],
      ['I23d-20', 332, { intermediation: '2', buyer_cnpj: '11222333000180', third_party_uf: 'SP' }, 'buyer_cnpj'],
      ['I23e-10', 333, { intermediation: '2', buyer_cnpj: '11222333000181' }, 'third_party_uf'],
      ['I29a-10', 334, { cfop: '3127' }, 'additions[0].drawback'],
    ] as const
  ).map(([rule, code, o, field]): GoodsBreaker => ({
    kind: 'request', rule, code, models: NFE,
    break: (c) => (importItem(c, o), `items[${last(c)}].import_declarations[0].${field}`),
  })),
  // prod/detExport (items[].export_detail, NF-e only; docs/fiscal/vehicles-and-foreign-trade.md).
  {
    kind: 'request', rule: 'I50-10', code: 336, models: NFE, applies: (c) => op(c).idDest !== 3,
    break: (c) => ((nfe(c).items[last(c)]!.export_detail = { drawback: '20190000019' }), `items[${last(c)}].export_detail`),
  },
  {
    kind: 'request', rule: 'I51-10', code: 338, models: NFE, applies: (c) => op(c).idDest === 3,
    break: (c) => ((nfe(c).items[last(c)]!.cfop = '7127'), `items[${last(c)}].export_detail.drawback`),
  },
  // prod/rastro (items[].batches, docs/fiscal/medicines.md): the random sales carry none; a batch is added to the last item.
  // I83-10 is judged against the UTC date of emission (the gateway's processingDay, the simulator's date).
  { kind: 'request', rule: 'I83-10', code: 877, models: BOTH, applies: (c) => noBatches(c), break: (c) => withBatch(c, { manufactured_on: '2099-01-01', expires_on: '2099-12-31' }, 'manufactured_on') },
  { kind: 'request', rule: 'I84-10', code: 870, models: BOTH, applies: (c) => noBatches(c), break: (c) => withBatch(c, { manufactured_on: '2020-06-01', expires_on: '2020-05-31' }, 'expires_on') },
  // NA: ICMS to the destination state (DIFAL), which the gateway computes
  {
    kind: 'document', rule: 'NA01-10', code: 807, models: NFCE, why: 'the NFC-e request has no DIFAL (difal is NF-e only)',
    // After COFINS in the XSD's order; an NFC-e dated 2027 has no COFINS group (pis-cofins-schedule.ts): after ICMS.
    break: (d) => ({ xml: firstDet(d.xml, (det) => det.replace(/<\/COFINS>|<\/ICMS>(?![\s\S]*<\/COFINS>)/, (end) => `${end}<ICMSUFDest><vBCUFDest>1.00</vBCUFDest><pICMSUFDest>18.00</pICMSUFDest><pICMSInter>12.00</pICMSInter><pICMSInterPart>100.00</pICMSInterPart><vICMSUFDest>0.06</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet></ICMSUFDest>`)) }),
  },
  { kind: 'document', rule: 'NA09-10', code: 697, models: NFE, why: COMPUTED, applies: (_c, d) => difalDet(d.xml) >= 0, break: (d) => ({ xml: onDifal(d.xml, (det) => setIn(setIn(det, 'orig', '0'), 'pICMSInter', '4.00')) }) },
  { kind: 'document', rule: 'NA09-20', code: 697, models: NFE, why: COMPUTED, applies: (_c, d) => difalDet(d.xml) >= 0, break: (d) => ({ xml: onDifal(d.xml, (det) => setIn(setIn(det, 'orig', '1'), 'pICMSInter', '12.00')) }) },
  {
    kind: 'document', rule: 'NA09-30', code: 698, models: NFE, why: COMPUTED,
    applies: (_c, d) => difalDet(d.xml) >= 0 && textAt(d.xml, ['ide', 'tpNF']) === '1' && textAt(d.xml, ['ide', 'finNFe']) === '1' && isSaleCfop(textAt(sliceAll(d.xml, 'det')[difalDet(d.xml)]!.outer, ['CFOP']) ?? ''),
    // A national good (orig 0) at the rate the two states do not take: 7 % from the South/Southeast but ES to the rest, else 12 %.
    break: (d) => {
      const seven = SOUTH_SOUTHEAST_BUT_ES.has(textAt(d.xml, ['emit', 'enderEmit', 'UF'])!) && !SOUTH_SOUTHEAST_BUT_ES.has(textAt(d.xml, ['dest', 'enderDest', 'UF'])!);
      return { xml: onDifal(d.xml, (det) => setIn(setIn(det, 'orig', '0'), 'pICMSInter', seven ? '12.00' : '7.00')) };
    },
  },
  { kind: 'document', rule: 'NA11-10', code: 699, models: NFE, why: COMPUTED, applies: (_c, d) => difalDet(d.xml) >= 0, break: (d) => ({ xml: onDifal(d.xml, (det) => setIn(det, 'pICMSInterPart', '80.00')) }) },
  { kind: 'document', rule: 'NA13-10', code: 793, models: NFE, why: COMPUTED, applies: (_c, d) => sliceAll(d.xml, 'det').some((x) => x.outer.includes('<vFCPUFDest>')), break: (d) => ({ xml: editDet(d.xml, sliceAll(d.xml, 'det').findIndex((x) => x.outer.includes('<vFCPUFDest>')), (det) => plusTwoCents(det, 'vFCPUFDest')) }) },
  { kind: 'document', rule: 'NA15-10', code: 815, models: NFE, why: COMPUTED, applies: (_c, d) => difalDet(d.xml) >= 0, break: (d) => ({ xml: onDifal(d.xml, (det) => plusTwoCents(det, 'vICMSUFDest')) }) },
  { kind: 'document', rule: 'NA17-10', code: 816, models: NFE, why: COMPUTED, applies: (_c, d) => difalDet(d.xml) >= 0, break: (d) => ({ xml: onDifal(d.xml, (det) => plusTwoCents(det, 'vICMSUFRemet')) }) },
  // O, Q, S: IPI, PIS, COFINS
  { kind: 'document', rule: 'O01-10', code: 742, models: NFCE, why: 'the NFC-e request has no IPI (ipi is NF-e only)', break: (d) => ({ xml: firstDet(d.xml, (det) => det.replace('</ICMS>', '</ICMS><IPI><cEnq>999</cEnq><IPINT><CST>53</CST></IPINT></IPI>')) }) },
  {
    kind: 'request', rule: 'O09-10', code: 388, models: NFE,
    break: (c) => {
      (c.req.items[last(c)] as ReturnType<typeof nfe>['items'][number]).ipi = { cst: '52', enquadramento: '999' };
      return `items[${last(c)}].ipi.enquadramento`;
    },
  },
  { kind: 'document', rule: 'Q01-20', code: 745, models: NFE, why: WRITTEN, break: (d) => ({ xml: firstDet(d.xml, (det) => det.replace(/<PIS>[\s\S]*?<\/PIS>/, '')) }) },
  { kind: 'document', rule: 'S01-20', code: 748, models: NFE, why: WRITTEN, break: (d) => ({ xml: firstDet(d.xml, (det) => det.replace(/<COFINS>[\s\S]*?<\/COFINS>/, '')) }) },
  // The fuel group (MOC group LA, prod/comb): the random sales carry no fuel items; each rule is broken on random fuel
  // NFC-e and NF-e by test/fuel-property.test.ts (the gateway's 422 and the simulator's answer) and test/fuel.test.ts.
  // The medicine group (MOC group K, items[].medicine): a medicine without batches on the last item of an NF-e.
  {
    kind: 'request', rule: 'K01-20', code: 873, models: NFE, applies: (c) => noBatches(c) && c.req.items[last(c)]!.fuel === undefined,
    break: (c) => ((c.req.items[last(c)]!.medicine = { anvisa_code: '1012345670012', max_consumer_price: 14.9 }), `items[${last(c)}].batches`),
  },
  ...(['LA03c-10/461', 'LA03c-20/855', 'LA03d-10/856', 'LA11-20/379', 'LA16-10/380', 'N08-10/858'] as const).map((id): GoodsBreaker => {
    const [rule, code] = id.split('/') as [string, string];
    return { kind: 'excluded', rule, code: Number(code), why: 'a rule of the fuel group, which the random sales do not carry: broken on random fuel sales in test/fuel-property.test.ts (N08-10 in src/authority-sim/fuel-rules.test.ts and validate-fuel-repasse.test.ts)' };
  }),
];
