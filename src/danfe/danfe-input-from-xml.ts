// Distributable XML (nfeProc = NFe + protNFe, or a bare NFe for contingency/previews) -> DanfeInput.
import { nfceUrls } from '../fiscal/qrcode/index.js';
import { sumMoney } from './br-format.js';
import {
  DanfeInputError,
  type DanfeAddress,
  type DanfeAuthorization,
  type DanfeCancellation,
  type DanfeConsumer,
  type DanfeInput,
  type DanfeItem,
  type DanfePayment,
  type DanfeSettings,
} from './danfe-input.js';
import { child, children, parseXml, path, text, type XmlNode } from './xml-node.js';

export interface DanfeExtras {
  settings?: DanfeSettings;
  /** Cancellation known from elsewhere (event stored apart from the nfeProc). */
  cancellation?: DanfeCancellation;
  /** The registered EPEC of a tpEmis 4 NFC-e (docs/fiscal/offline-contingency.md#epec-sp). */
  epec?: { protocol: string; registeredAt: string };
}

// Authorized use: 100, or 150 when authorized late (docs/fiscal/offline-contingency.md: late contingency notes).
const AUTHORIZED = new Set(['100', '150']);
// Cancellation (110111) and cancellation by substitution (110112), registered (135) or late (155).
const CANCEL_EVENTS = new Set(['110111', '110112']);
const EVENT_REGISTERED = new Set(['135', '155']);

export function required(node: XmlNode | undefined, key: string, where: string): string {
  const v = text(node, key);
  if (v === undefined) throw new DanfeInputError(`${where}/${key} is missing`);
  return v;
}

export function address(node: XmlNode | undefined): DanfeAddress | undefined {
  if (!node) return undefined;
  const a: DanfeAddress = {
    street: text(node, 'xLgr') ?? '',
    number: text(node, 'nro') ?? '',
    city: text(node, 'xMun') ?? '',
    uf: text(node, 'UF') ?? '',
  };
  const optional = { complement: 'xCpl', district: 'xBairro', cep: 'CEP', phone: 'fone' } as const;
  for (const [field, tag] of Object.entries(optional) as Array<[keyof typeof optional, string]>) {
    const v = text(node, tag);
    if (v !== undefined) a[field] = v;
  }
  return a;
}

function items(infNFe: XmlNode): DanfeItem[] {
  return children(infNFe, 'det').map((det, i) => {
    const prod = child(det, 'prod');
    const where = `det[${i + 1}]/prod`;
    const item: DanfeItem = {
      number: Number(det['@nItem'] ?? i + 1),
      code: required(prod, 'cProd', where),
      description: required(prod, 'xProd', where),
      quantity: required(prod, 'qCom', where),
      unit: required(prod, 'uCom', where),
      unitPrice: required(prod, 'vUnCom', where),
      total: required(prod, 'vProd', where),
    };
    const discount = text(prod, 'vDesc');
    if (discount !== undefined) item.discount = discount;
    const additions = ['vFrete', 'vSeg', 'vOutro'].map((k) => text(prod, k));
    if (additions.some((v) => v !== undefined)) item.additions = sumMoney(additions);
    return item;
  });
}

// 4.00: pag/detPag (+ vTroco); 3.10: pag repeated with tPag/vPag directly inside.
function payments(infNFe: XmlNode): { payments: DanfePayment[]; change?: string } {
  const pags = children(infNFe, 'pag');
  const details = pags.flatMap((pag) => (pag['detPag'] === undefined ? [pag] : children(pag, 'detPag')));
  const list = details.map((d) => {
    const p: DanfePayment = { method: text(d, 'tPag') ?? '99', amount: text(d, 'vPag') ?? '0.00' };
    const description = text(d, 'xPag');
    if (description !== undefined) p.description = description;
    return p;
  });
  const change = pags.map((p) => text(p, 'vTroco')).find((v) => v !== undefined);
  return change === undefined ? { payments: list } : { payments: list, change };
}

function consumer(infNFe: XmlNode): DanfeConsumer | undefined {
  const dest = child(infNFe, 'dest');
  if (!dest) return undefined;
  const c: DanfeConsumer = {};
  const cpf = text(dest, 'CPF');
  const cnpj = text(dest, 'CNPJ');
  const foreign = text(dest, 'idEstrangeiro');
  if (cpf) c.document = { kind: 'cpf', id: cpf };
  else if (cnpj) c.document = { kind: 'cnpj', id: cnpj };
  else if (foreign) c.document = { kind: 'foreign', id: foreign };
  const name = text(dest, 'xNome');
  if (name) c.name = name;
  const ender = address(child(dest, 'enderDest'));
  if (ender) c.address = ender;
  return c.document || c.name ? c : undefined;
}

export function authorization(protNFe: XmlNode | undefined, key: string): DanfeAuthorization | undefined {
  const inf = child(protNFe, 'infProt');
  if (!inf) return undefined;
  const cStat = text(inf, 'cStat') ?? '';
  if (!AUTHORIZED.has(cStat)) {
    throw new DanfeInputError(`protNFe cStat ${cStat} (${text(inf, 'xMotivo') ?? ''}): a DANFE exists only for authorized notes (100/150)`);
  }
  const chNFe = text(inf, 'chNFe');
  if (chNFe !== undefined && chNFe !== key) throw new DanfeInputError(`protNFe is for key ${chNFe}, the note is ${key}`);
  return { protocol: required(inf, 'nProt', 'protNFe/infProt'), receivedAt: required(inf, 'dhRecbto', 'protNFe/infProt') };
}

// sped-da convention (no rule in the Manual): a registered cancellation event prints "CANCELADA".
export function cancellationIn(proc: XmlNode | undefined): DanfeCancellation | undefined {
  const events = [...children(proc, 'retEvento'), ...children(proc, 'procEventoNFe').map((p) => child(p, 'retEvento'))];
  for (const ev of events) {
    const inf = child(ev, 'infEvento');
    if (CANCEL_EVENTS.has(text(inf, 'tpEvento') ?? '') && EVENT_REGISTERED.has(text(inf, 'cStat') ?? '')) {
      const c: DanfeCancellation = {};
      const protocol = text(inf, 'nProt');
      const at = text(inf, 'dhRegEvento');
      if (protocol) c.protocol = protocol;
      if (at) c.at = at;
      return c;
    }
  }
  return undefined;
}

/** The registered cancellation in a procEventoNFe (the event stored apart from the note's nfeProc). */
export function cancellationInEventXml(xml: string): DanfeCancellation | undefined {
  return cancellationIn(parseXml(xml));
}

export function danfeInputFromXml(xml: string, extras: DanfeExtras = {}): DanfeInput {
  const doc = parseXml(xml);
  const proc = child(doc, 'nfeProc');
  const nfe = proc ? child(proc, 'NFe') : child(doc, 'NFe');
  const infNFe = child(nfe, 'infNFe');
  if (!infNFe) throw new DanfeInputError('no NFe/infNFe element: expected an nfeProc or an NFe');
  const ide = child(infNFe, 'ide');
  if (text(ide, 'mod') !== '65') throw new DanfeInputError(`ide/mod is ${text(ide, 'mod') ?? 'missing'}: the DANFE NFC-e is for model 65`);
  const key = String(infNFe['@Id'] ?? '').replace(/^NFe/, '');
  if (!/^[0-9A-Z]{44}$/.test(key)) throw new DanfeInputError(`infNFe/@Id does not hold a 44-position access key`);

  const emit = child(infNFe, 'emit');
  const tpAmb = text(ide, 'tpAmb') === '1' ? 1 : 2;
  const supl = child(nfe, 'infNFeSupl');
  // docs/fiscal/danfe-nfce.md: the QR code must exist on every DANFE NFC-e, normal or contingency.
  const qrCode = text(supl, 'qrCode');
  if (!qrCode) throw new DanfeInputError('infNFeSupl/qrCode is missing: the DANFE NFC-e must carry the QR code');
  const issuerAddress = address(child(emit, 'enderEmit')) ?? { street: '', number: '', city: '', uf: '' };

  const total = path(infNFe, 'total', 'ICMSTot');
  const input: DanfeInput = {
    accessKey: key,
    tpAmb,
    tpEmis: Number(text(ide, 'tpEmis') ?? '1'),
    number: required(ide, 'nNF', 'ide'),
    series: required(ide, 'serie', 'ide'),
    issuedAt: required(ide, 'dhEmi', 'ide'),
    issuer: { name: required(emit, 'xNome', 'emit'), address: issuerAddress },
    items: items(infNFe),
    totals: {
      products: required(total, 'vProd', 'total/ICMSTot'),
      discount: text(total, 'vDesc') ?? '0.00',
      additions: sumMoney(['vFrete', 'vSeg', 'vOutro'].map((k) => text(total, k))),
      total: required(total, 'vNF', 'total/ICMSTot'),
    },
    ...payments(infNFe),
    qrCode,
    urlChave: text(supl, 'urlChave') ?? stateUrlChave(issuerAddress.uf, tpAmb),
  };
  const vTotTrib = text(total, 'vTotTrib');
  if (vTotTrib !== undefined) input.totals.approximateTaxes = vTotTrib;
  for (const [field, tag] of [['cnpj', 'CNPJ'], ['cpf', 'CPF'], ['tradeName', 'xFant'], ['ie', 'IE']] as const) {
    const v = text(emit, tag);
    if (v !== undefined) input.issuer[field] = v;
  }
  const since = text(ide, 'dhCont');
  const reason = text(ide, 'xJust');
  if (since || reason) {
    input.contingency = {};
    if (since) input.contingency.since = since;
    if (reason) input.contingency.reason = reason;
  }
  const dest = consumer(infNFe);
  if (dest) input.consumer = dest;
  const auth = authorization(child(proc, 'protNFe'), key);
  if (auth) input.authorization = auth;
  const cancellation = extras.cancellation ?? cancellationIn(proc);
  if (cancellation) input.cancellation = cancellation;
  const infAdic = child(infNFe, 'infAdic');
  const fisco = text(infAdic, 'infAdFisco');
  const cpl = text(infAdic, 'infCpl');
  if (fisco) input.fiscoMessage = fisco;
  if (cpl) input.taxpayerMessage = cpl;
  if (extras.settings) input.settings = extras.settings;
  if (extras.epec && input.tpEmis === 4) input.epec = extras.epec;
  return input;
}

// 3.10 notes have no infNFeSupl/urlChave: print the state's published address instead.
function stateUrlChave(uf: string, tpAmb: 1 | 2): string {
  try {
    return nfceUrls(uf, tpAmb).urlChave;
  } catch {
    throw new DanfeInputError(`infNFeSupl/urlChave is missing and UF ${JSON.stringify(uf)} has no published address`);
  }
}
