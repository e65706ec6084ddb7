// Authorised nfeProc (model 55) -> DanfeNfeInput. Works on any company's note (received documents
// too): everything printed comes from the XML and its protocol (docs/fiscal/danfe-nfce.md holds for the NF-e too).
import { address, authorization, cancellationIn, required } from '../danfe-input-from-xml.js';
import { DanfeInputError, type DanfeCancellation, type DanfeSettings } from '../danfe-input.js';
import { child, children, parseXml, path, text, type XmlNode } from '../xml-node.js';
import type { DanfeNfeDuplicate, DanfeNfeInput, DanfeNfeItem, DanfeNfeParty, DanfeNfeTransport, DanfeNfeVolumes } from './danfe-nfe-input.js';
import { DANFE_NFE_LIMITS } from './danfe-nfe-limits.js';
import { withFuelLine } from './fuel-line.js';
import { withMedicineLine } from './medicine-line.js';
import { withVehicleLine } from './vehicle-line.js';

export interface DanfeNfeExtras {
  settings?: DanfeSettings;
  /** Cancellation known from elsewhere (event stored apart from the nfeProc). */
  cancellation?: DanfeCancellation;
  /**
   * The registered EPEC of a tpEmis 4 note not yet authorized (docs/fiscal/epec.md#the-danfe): the DANFE is then drawn
   * from the signed NFe alone, with the EPEC's protocol where the authorization's would be.
   */
  epec?: { protocol: string; registeredAt: string };
}

const TOTAL_TAGS = ['vBC', 'vICMS', 'vBCST', 'vST', 'vProd', 'vFrete', 'vSeg', 'vDesc', 'vOutro', 'vIPI', 'vNF', 'vTotTrib', 'vII', 'vFCP', 'vFCPST', 'vICMSUFDest', 'vICMSUFRemet', 'vFCPUFDest', 'vICMSDeson'];

/** Text no longer than the XSD allows (a received note might not be schema-valid). */
function clamp(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

function party(node: XmlNode | undefined, addressTag: string): DanfeNfeParty | undefined {
  if (!node) return undefined;
  const p: DanfeNfeParty = { name: clamp(text(node, 'xNome'), 60) ?? '' };
  const cnpj = text(node, 'CNPJ');
  const cpf = text(node, 'CPF');
  const foreign = text(node, 'idEstrangeiro');
  if (cnpj) p.document = { kind: 'cnpj', id: cnpj };
  else if (cpf) p.document = { kind: 'cpf', id: cpf };
  else if (foreign) p.document = { kind: 'foreign', id: foreign };
  const ie = text(node, 'IE');
  if (ie) p.ie = ie;
  const a = address(child(node, addressTag));
  if (a) p.address = a;
  return p;
}

/** The one tax group inside imposto/ICMS (ICMS00, ICMSSN102, ...) or imposto/IPI's IPITrib. */
function firstGroup(node: XmlNode | undefined): XmlNode | undefined {
  if (!node) return undefined;
  for (const [k, v] of Object.entries(node)) if (!k.startsWith('@') && v && typeof v === 'object') return child(node, k);
  return undefined;
}

function item(det: XmlNode, i: number): DanfeNfeItem {
  const prod = child(det, 'prod');
  const where = `det[${i + 1}]/prod`;
  const imposto = child(det, 'imposto');
  const icms = firstGroup(child(imposto, 'ICMS'));
  const ipi = child(child(imposto, 'IPI'), 'IPITrib');
  const cst = text(icms, 'CST') ?? text(icms, 'CSOSN');
  const it: DanfeNfeItem = {
    number: Number(det['@nItem'] ?? i + 1),
    code: clamp(required(prod, 'cProd', where), 60)!,
    description: clamp(required(prod, 'xProd', where), 120)!,
    ncm: text(prod, 'NCM') ?? '',
    cst: cst === undefined ? '' : `${text(icms, 'orig') ?? ''}${cst}`,
    cfop: text(prod, 'CFOP') ?? '',
    unit: clamp(required(prod, 'uCom', where), 6)!,
    quantity: required(prod, 'qCom', where),
    unitPrice: required(prod, 'vUnCom', where),
    total: required(prod, 'vProd', where),
  };
  const optional = [
    ['extra', clamp(withVehicleLine(prod, withMedicineLine(prod, withFuelLine(prod, text(det, 'infAdProd')))), 600)],
    ['icmsBase', text(icms, 'vBC')],
    ['icmsValue', text(icms, 'vICMS')],
    ['icmsRate', text(icms, 'pICMS')],
    ['ipiValue', text(ipi, 'vIPI')],
    ['ipiRate', text(ipi, 'pIPI')],
  ] as const;
  for (const [field, v] of optional) if (v !== undefined) it[field] = v;
  return it;
}

/** Sum of decimal strings at 3 places (weights in kg), as a decimal string. */
function sumThousandths(values: Array<string | undefined>): string | undefined {
  const present = values.filter((v): v is string => v !== undefined && /^\d+(\.\d+)?$/.test(v));
  if (present.length === 0) return undefined;
  const total = present.reduce((acc, v) => {
    const [int = '0', frac = ''] = v.split('.');
    return acc + Number(int) * 1000 + Number((frac + '000').slice(0, 3));
  }, 0);
  return `${Math.floor(total / 1000)}.${String(total % 1000).padStart(3, '0')}`;
}

/** All vol groups as one line: one volume as written, several summed (species/brand kept when shared). */
function volumes(transp: XmlNode | undefined): DanfeNfeVolumes | undefined {
  const vols = children(transp, 'vol');
  if (vols.length === 0) return undefined;
  const same = (tag: string) => {
    const vs = new Set(vols.map((v) => text(v, tag)).filter((v) => v !== undefined));
    return vs.size > 1 ? 'DIVERSOS' : [...vs][0];
  };
  const v: DanfeNfeVolumes = {};
  const quantity = vols.length === 1 ? text(vols[0], 'qVol') : sumThousandths(vols.map((x) => text(x, 'qVol')))?.replace(/\.000$/, '');
  const fields = [
    ['quantity', quantity],
    ['species', clamp(same('esp'), 60)],
    ['brand', clamp(same('marca'), 60)],
    ['numbering', clamp(vols.length === 1 ? text(vols[0], 'nVol') : undefined, 60)],
    ['grossKg', sumThousandths(vols.map((x) => text(x, 'pesoB')))],
    ['netKg', sumThousandths(vols.map((x) => text(x, 'pesoL')))],
  ] as const;
  for (const [field, value] of fields) if (value !== undefined) v[field] = value;
  return v;
}

function transport(infNFe: XmlNode): DanfeNfeTransport {
  const transp = child(infNFe, 'transp');
  const t: DanfeNfeTransport = { mode: text(transp, 'modFrete') ?? '9' };
  const carrierNode = child(transp, 'transporta');
  if (carrierNode) {
    const carrier = party(carrierNode, '__none__')!;
    const street = text(carrierNode, 'xEnder');
    const city = text(carrierNode, 'xMun');
    const uf = text(carrierNode, 'UF');
    if (street || city || uf) carrier.address = { street: clamp(street, 60) ?? '', number: '', city: city ?? '', uf: uf ?? '' };
    t.carrier = carrier;
  }
  const vehicle = child(transp, 'veicTransp');
  for (const [field, tag] of [['antt', 'RNTC'], ['plate', 'placa'], ['plateUf', 'UF']] as const) {
    const v = text(vehicle, tag);
    if (v !== undefined) t[field] = v;
  }
  const vol = volumes(transp);
  if (vol) t.volumes = vol;
  return t;
}

function billing(infNFe: XmlNode): Pick<DanfeNfeInput, 'invoice' | 'duplicates'> {
  const cobr = child(infNFe, 'cobr');
  const dups = children(cobr, 'dup');
  if (dups.length > DANFE_NFE_LIMITS.duplicates) throw new DanfeInputError(`cobr has ${dups.length} dup; the layout allows at most ${DANFE_NFE_LIMITS.duplicates}`);
  const duplicates = dups.map((d) => {
    const dup: DanfeNfeDuplicate = { amount: text(d, 'vDup') ?? '0.00' };
    const number = clamp(text(d, 'nDup'), 60);
    const due = text(d, 'dVenc');
    if (number) dup.number = number;
    if (due) dup.dueDate = due;
    return dup;
  });
  const fat = child(cobr, 'fat');
  if (!fat) return { duplicates };
  const invoice: NonNullable<DanfeNfeInput['invoice']> = {};
  for (const [field, tag] of [['number', 'nFat'], ['original', 'vOrig'], ['discount', 'vDesc'], ['net', 'vLiq']] as const) {
    const v = clamp(text(fat, tag), 60);
    if (v !== undefined) invoice[field] = v;
  }
  return { invoice, duplicates };
}

function ibsCbs(total: XmlNode | undefined): DanfeNfeInput['ibsCbs'] {
  const tot = child(total, 'IBSCBSTot');
  if (!tot) return undefined;
  const gIBS = child(tot, 'gIBS');
  const r: NonNullable<DanfeNfeInput['ibsCbs']> = {
    base: text(tot, 'vBCIBSCBS') ?? '0.00',
    ibs: text(gIBS, 'vIBS') ?? '0.00',
    cbs: text(child(tot, 'gCBS'), 'vCBS') ?? '0.00',
  };
  const ibsUf = text(child(gIBS, 'gIBSUF'), 'vIBSUF');
  const ibsMun = text(child(gIBS, 'gIBSMun'), 'vIBSMun');
  const all = text(total, 'vNFTot');
  if (ibsUf !== undefined) r.ibsUf = ibsUf;
  if (ibsMun !== undefined) r.ibsMun = ibsMun;
  if (all !== undefined) r.totalWithIbsCbs = all;
  return r;
}

function issqn(emit: XmlNode | undefined, total: XmlNode | undefined): DanfeNfeInput['issqn'] {
  const tot = child(total, 'ISSQNtot');
  if (!tot) return undefined;
  const r: NonNullable<DanfeNfeInput['issqn']> = {};
  for (const [field, node, tag] of [['municipalRegistration', emit, 'IM'], ['services', tot, 'vServ'], ['base', tot, 'vBC'], ['value', tot, 'vISS']] as const) {
    const v = text(node, tag);
    if (v !== undefined) r[field] = v;
  }
  return r;
}

/** The DANFE NF-e's content from an authorised nfeProc (NFe + protNFe with cStat 100/150). */
export function danfeNfeInputFromXml(xml: string, extras: DanfeNfeExtras = {}): DanfeNfeInput {
  if (Buffer.byteLength(xml, 'utf8') > DANFE_NFE_LIMITS.xmlBytes) {
    throw new DanfeInputError(`the XML has more than ${DANFE_NFE_LIMITS.xmlBytes} bytes`);
  }
  const doc = parseXml(xml);
  // An EPEC's DANFE is printed before the state authorizes the note: from the signed NFe (NT 2014.001 3.1).
  const bare = extras.epec !== undefined && child(doc, 'nfeProc') === undefined;
  const proc = bare ? { NFe: child(doc, 'NFe') } : child(doc, 'nfeProc');
  const infNFe = path(proc, 'NFe', 'infNFe');
  if (!infNFe) throw new DanfeInputError('no nfeProc/NFe/infNFe element: the DANFE NF-e is drawn from the authorised nfeProc');
  const ide = child(infNFe, 'ide');
  if (text(ide, 'mod') !== '55') throw new DanfeInputError(`ide/mod is ${text(ide, 'mod') ?? 'missing'}: the DANFE NF-e is for model 55`);
  const key = String(infNFe['@Id'] ?? '').replace(/^NFe/, '');
  if (!/^\d{44}$/.test(key)) throw new DanfeInputError('infNFe/@Id does not hold a 44-digit access key');
  if (bare && text(ide, 'tpEmis') !== '4') throw new DanfeInputError('only a note issued with tpEmis 4 (EPEC) is printed before its authorization');
  const auth = bare ? { protocol: extras.epec!.protocol, receivedAt: extras.epec!.registeredAt } : authorization(child(proc, 'protNFe'), key);
  if (!auth) throw new DanfeInputError('protNFe/infProt is missing: the DANFE NF-e is drawn from an authorised nfeProc');
  const dets = children(infNFe, 'det');
  if (dets.length === 0 || dets.length > DANFE_NFE_LIMITS.items) {
    throw new DanfeInputError(`the note has ${dets.length} items; the layout allows 1 to ${DANFE_NFE_LIMITS.items}`);
  }

  const emit = child(infNFe, 'emit');
  const totalNode = child(infNFe, 'total');
  const icmsTot = child(totalNode, 'ICMSTot');
  const totals: Record<string, string> = {};
  for (const tag of TOTAL_TAGS) {
    const v = text(icmsTot, tag);
    if (v !== undefined) totals[tag] = v;
  }
  totals['vNF'] = required(icmsTot, 'vNF', 'total/ICMSTot');
  const emitParty = party(emit, 'enderEmit')!;
  const input: DanfeNfeInput = {
    accessKey: key,
    tpAmb: text(ide, 'tpAmb') === '1' ? 1 : 2,
    tpEmis: Number(text(ide, 'tpEmis') ?? '1'),
    tpNF: text(ide, 'tpNF') === '0' ? '0' : '1',
    number: required(ide, 'nNF', 'ide'),
    series: required(ide, 'serie', 'ide'),
    natOp: clamp(required(ide, 'natOp', 'ide'), 60)!,
    issuedAt: text(ide, 'dhEmi') ?? required(ide, 'dEmi', 'ide'),
    issuer: { name: required(emit, 'xNome', 'emit'), address: emitParty.address ?? { street: '', number: '', city: '', uf: '' } },
    ...billing(infNFe),
    totals,
    transport: transport(infNFe),
    items: dets.map(item),
    authorization: auth,
  };
  for (const [field, tag] of [['cnpj', 'CNPJ'], ['cpf', 'CPF'], ['tradeName', 'xFant'], ['ie', 'IE'], ['ieSt', 'IEST']] as const) {
    const v = text(emit, tag);
    if (v !== undefined) input.issuer[field] = v;
  }
  const leftAt = text(ide, 'dhSaiEnt');
  if (leftAt) input.leftAt = leftAt;
  const since = text(ide, 'dhCont');
  const reason = text(ide, 'xJust');
  if (since || reason) input.contingency = { ...(since ? { since } : {}), ...(reason ? { reason } : {}) };
  const recipient = party(child(infNFe, 'dest'), 'enderDest');
  if (recipient) input.recipient = recipient;
  const reform = ibsCbs(totalNode);
  if (reform) input.ibsCbs = reform;
  const services = issqn(emit, totalNode);
  if (services) input.issqn = services;
  const cancellation = extras.cancellation ?? cancellationIn(proc);
  if (cancellation) input.cancellation = cancellation;
  if (bare) input.epec = extras.epec!;
  const infAdic = child(infNFe, 'infAdic');
  const fisco = clamp(text(infAdic, 'infAdFisco'), 2000);
  const cpl = clamp(text(infAdic, 'infCpl'), 5000);
  if (fisco) input.fiscoMessage = fisco;
  if (cpl) input.taxpayerMessage = cpl;
  if (extras.settings) input.settings = extras.settings;
  return input;
}
