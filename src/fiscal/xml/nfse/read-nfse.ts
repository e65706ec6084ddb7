// An authorized NFS-e XML (NFSe_v1.01.xsd: NFSe/infNFSe with the DPS inside) -> NfseView. Reads any
// issuer's document (received ones too), so nothing is assumed valid: a missing mandatory element or
// an amount that is not a decimal with at most two places is an NfseReadError naming its path.
import { child, parseXml, text, type XmlNode } from '../xml-node.js';
import { isValidNfseKey } from './dps-id.js';
import type { DpsPartyId } from './model.js';
import type { NfseDps, NfseEmit, NfseEmitAddress, NfseIbsCbs, NfseParty, NfsePartyAddress, NfsePisCofins, NfseServ, NfseValues, NfseView } from './nfse-view.js';

/** The XML is not an authorized NFS-e this reader understands. */
export class NfseReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NfseReadError';
  }
}

/**
 * Largest NFS-e read. A DPS travels gzipped inside a JSON body; Sefin's NFS-e adds its own groups and
 * signature (the real sample is 9 KB). 1 MB leaves room for the longest texts (xDescServ 2000,
 * xInfComp 2000, documents of deductions) while bounding the parse.
 */
export const NFSE_XML_MAX_BYTES = 1024 * 1024;

const DECIMAL_2 = /^(-?)(\d{1,15})(?:\.(\d{1,2}))?$/;

/** "10000.00" -> 1000000; "5.00" (%) -> 500: the XSD's TSDec*V2 have at most two decimals. */
function hundredths(value: string, where: string): number {
  const m = DECIMAL_2.exec(value);
  if (!m) throw new NfseReadError(`${where} is not a decimal with at most two places: ${JSON.stringify(value.slice(0, 40))}`);
  const n = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -n : n;
}

class Reader {
  constructor(
    private readonly node: XmlNode | undefined,
    readonly where: string,
  ) {}

  at(key: string): Reader {
    return new Reader(child(this.node, key), `${this.where}/${key}`);
  }

  get present(): boolean {
    return this.node !== undefined;
  }

  opt(key: string): string | undefined {
    return text(this.node, key);
  }

  req(key: string): string {
    const v = text(this.node, key);
    if (v === undefined) throw new NfseReadError(`${this.where}/${key} is missing`);
    return v;
  }

  num(key: string): number {
    return hundredths(this.req(key), `${this.where}/${key}`);
  }

  optNum(key: string): number | undefined {
    const v = this.opt(key);
    return v === undefined ? undefined : hundredths(v, `${this.where}/${key}`);
  }

  attr(name: string): string | undefined {
    const v = this.node?.[`@${name}`];
    return typeof v === 'string' ? v : undefined;
  }
}

/** Copies the optional texts that are present (exactOptionalPropertyTypes: no `undefined` values). */
function optional<T extends object>(target: T, r: Reader, keys: ReadonlyArray<keyof T & string>): T {
  for (const k of keys) {
    const v = r.opt(k);
    if (v !== undefined) (target as Record<string, unknown>)[k] = v;
  }
  return target;
}

function partyId(r: Reader): DpsPartyId {
  const cnpj = r.opt('CNPJ');
  if (cnpj) return { CNPJ: cnpj };
  const cpf = r.opt('CPF');
  if (cpf) return { CPF: cpf };
  const nif = r.opt('NIF');
  if (nif) return { NIF: nif };
  const cNaoNIF = r.opt('cNaoNIF');
  if (cNaoNIF === '0' || cNaoNIF === '1' || cNaoNIF === '2') return { cNaoNIF: Number(cNaoNIF) as 0 | 1 | 2 };
  throw new NfseReadError(`${r.where} has none of CNPJ, CPF, NIF, cNaoNIF`);
}

function partyAddress(r: Reader): NfsePartyAddress | undefined {
  if (!r.present) return undefined;
  const a: NfsePartyAddress = { xLgr: r.req('xLgr'), nro: r.req('nro'), xBairro: r.req('xBairro') };
  optional(a, r, ['xCpl']);
  const nac = r.at('endNac');
  const ext = r.at('endExt');
  if (nac.present) a.endNac = { cMun: nac.req('cMun'), CEP: nac.req('CEP') };
  else if (ext.present) a.endExt = { cPais: ext.req('cPais'), cEndPost: ext.req('cEndPost'), xCidade: ext.req('xCidade'), xEstProvReg: ext.req('xEstProvReg') };
  return a;
}

function party(r: Reader): NfseParty | undefined {
  if (!r.present) return undefined;
  const p: NfseParty = { id: partyId(r) };
  optional(p, r, ['CAEPF', 'IM', 'xNome', 'fone', 'email']);
  const end = partyAddress(r.at('end'));
  if (end) p.end = end;
  const reg = r.at('regTrib');
  if (reg.present) p.regTrib = optional<NonNullable<NfseParty['regTrib']>>({ opSimpNac: reg.req('opSimpNac'), regEspTrib: reg.req('regEspTrib') }, reg, ['regApTribSN']);
  return p;
}

function emit(r: Reader): NfseEmit {
  const cnpj = r.opt('CNPJ');
  const cpf = r.opt('CPF');
  if (!cnpj && !cpf) throw new NfseReadError(`${r.where} has neither CNPJ nor CPF`);
  const e: NfseEmit = { id: cnpj ? { CNPJ: cnpj } : { CPF: cpf! }, xNome: r.req('xNome') };
  optional(e, r, ['IM', 'xFant', 'fone', 'email']);
  const a = r.at('enderNac');
  if (a.present) e.enderNac = optional<NfseEmitAddress>({ xLgr: a.req('xLgr'), nro: a.req('nro'), xBairro: a.req('xBairro'), cMun: a.req('cMun'), UF: a.req('UF'), CEP: a.req('CEP') }, a, ['xCpl']);
  return e;
}

function serv(r: Reader): NfseServ {
  const c = r.at('cServ');
  const loc = r.at('locPrest');
  const s: NfseServ = { cTribNac: c.req('cTribNac'), xDescServ: c.req('xDescServ') };
  optional(s, c, ['cTribMun', 'cNBS', 'cIntContrib']);
  optional(s, loc, ['cLocPrestacao', 'cPaisPrestacao']);
  optional(s, r.at('infoCompl'), ['xInfComp']);
  return s;
}

function values(nfse: Reader, dps: Reader): NfseValues {
  const trib = dps.at('trib');
  const mun = trib.at('tribMun');
  const fed = trib.at('tribFed');
  const desc = dps.at('vDescCondIncond');
  const dr = dps.at('vDedRed');
  const v: NfseValues = {
    vServ: dps.at('vServPrest').num('vServ'),
    vDescIncond: desc.optNum('vDescIncond') ?? 0,
    vDescCond: desc.optNum('vDescCond') ?? 0,
    tribISSQN: mun.req('tribISSQN'),
    // TCTribMunicipal: tpRetISSQN is mandatory in 1.01.
    tpRetISSQN: mun.req('tpRetISSQN'),
    vRetCP: fed.optNum('vRetCP') ?? 0,
    vRetIRRF: fed.optNum('vRetIRRF') ?? 0,
    vRetCSLL: fed.optNum('vRetCSLL') ?? 0,
    vTotalRet: nfse.optNum('vTotalRet') ?? 0,
    vLiq: nfse.num('vLiq'),
  };
  const numbers: Array<[keyof NfseValues, Reader, string]> = [
    ['vReceb', dps.at('vServPrest'), 'vReceb'],
    ['pDR', dr, 'pDR'],
    ['vDR', dr, 'vDR'],
    ['pAliq', mun, 'pAliq'],
    ['vCalcDR', nfse, 'vCalcDR'],
    ['vCalcBM', nfse, 'vCalcBM'],
    ['vBC', nfse, 'vBC'],
    ['pAliqAplic', nfse, 'pAliqAplic'],
    ['vISSQN', nfse, 'vISSQN'],
  ];
  for (const [field, r, key] of numbers) {
    const n = r.optNum(key);
    if (n !== undefined) (v as unknown as Record<string, number>)[field] = n;
  }
  optional(v, nfse, ['tpBM']);
  const pc = fed.at('piscofins');
  if (pc.present) {
    v.pisCofins = optional<NfsePisCofins>({ CST: pc.req('CST') }, pc, ['tpRetPisCofins']);
    for (const k of ['vBCPisCofins', 'pAliqPis', 'pAliqCofins', 'vPis', 'vCofins'] as const) {
      const n = pc.optNum(k);
      if (n !== undefined) v.pisCofins[k] = n;
    }
  }
  const tot = trib.at('totTrib');
  const monet = tot.at('vTotTrib');
  const pct = tot.at('pTotTrib');
  if (monet.present) v.totTrib = { vTotTribFed: monet.num('vTotTribFed'), vTotTribEst: monet.num('vTotTribEst'), vTotTribMun: monet.num('vTotTribMun') };
  else if (pct.present) v.totTrib = { pTotTribFed: pct.num('pTotTribFed'), pTotTribEst: pct.num('pTotTribEst'), pTotTribMun: pct.num('pTotTribMun') };
  else if (tot.opt('indTotTrib') !== undefined) v.totTrib = { indTotTrib: tot.req('indTotTrib') };
  else if (tot.opt('pTotTribSN') !== undefined) v.totTrib = { pTotTribSN: tot.num('pTotTribSN') };
  return v;
}

function ibsCbs(r: Reader, dps: Reader): NfseIbsCbs | undefined {
  if (!r.present) return undefined;
  const val = r.at('valores');
  const tot = r.at('totCIBS');
  const ibs = tot.at('gIBS');
  const g: NfseIbsCbs = {
    cLocalidadeIncid: r.req('cLocalidadeIncid'),
    xLocalidadeIncid: r.req('xLocalidadeIncid'),
    vBC: val.num('vBC'),
    pIBSUF: val.at('uf').num('pIBSUF'),
    pAliqEfetUF: val.at('uf').num('pAliqEfetUF'),
    pIBSMun: val.at('mun').num('pIBSMun'),
    pAliqEfetMun: val.at('mun').num('pAliqEfetMun'),
    pCBS: val.at('fed').num('pCBS'),
    pAliqEfetCBS: val.at('fed').num('pAliqEfetCBS'),
    vTotNF: tot.num('vTotNF'),
    vIBSTot: ibs.num('vIBSTot'),
    vIBSUF: ibs.at('gIBSUFTot').num('vIBSUF'),
    vIBSMun: ibs.at('gIBSMunTot').num('vIBSMun'),
    vCBS: tot.at('gCBS').num('vCBS'),
  };
  const redutor = r.optNum('pRedutor');
  if (redutor !== undefined) g.pRedutor = redutor;
  return optional(g, dps.at('IBSCBS').at('valores').at('trib').at('gIBSCBS'), ['CST', 'cClassTrib']);
}

function dpsPart(r: Reader): NfseDps {
  const tpAmb = r.req('tpAmb');
  if (tpAmb !== '1' && tpAmb !== '2') throw new NfseReadError(`${r.where}/tpAmb must be 1 or 2, got ${JSON.stringify(tpAmb)}`);
  const prest = party(r.at('prest'));
  if (!prest) throw new NfseReadError(`${r.where}/prest is missing`);
  const d: NfseDps = {
    Id: r.attr('Id') ?? '',
    tpAmb: tpAmb === '1' ? 1 : 2,
    dhEmi: r.req('dhEmi'),
    verAplic: r.req('verAplic'),
    serie: r.req('serie'),
    nDPS: r.req('nDPS'),
    dCompet: r.req('dCompet'),
    tpEmit: r.req('tpEmit'),
    cLocEmi: r.req('cLocEmi'),
    prest,
    serv: serv(r.at('serv')),
  };
  const toma = party(r.at('toma'));
  const interm = party(r.at('interm'));
  if (toma) d.toma = toma;
  if (interm) d.interm = interm;
  const subst = r.at('subst');
  if (subst.present) d.subst = optional<NonNullable<NfseDps['subst']>>({ chSubstda: subst.req('chSubstda'), cMotivo: subst.req('cMotivo') }, subst, ['xMotivo']);
  return d;
}

/** The NfseView of an authorized NFS-e XML; NfseReadError for anything else (a DPS, an event, a broken note). */
export function readNfse(xml: string): NfseView {
  if (Buffer.byteLength(xml, 'utf8') > NFSE_XML_MAX_BYTES) throw new NfseReadError(`the XML has more than ${NFSE_XML_MAX_BYTES} bytes`);
  let root: XmlNode;
  try {
    root = parseXml(xml);
  } catch (err) {
    throw new NfseReadError(`not well-formed XML: ${(err as Error).message}`);
  }
  const inf = new Reader(child(child(root, 'NFSe'), 'infNFSe'), 'NFSe/infNFSe');
  if (!inf.present) throw new NfseReadError(`not an NFS-e: no NFSe/infNFSe element (root: ${Object.keys(root).find((k) => !k.startsWith('?')) ?? 'none'})`);
  // docs/fiscal/nfse-national.md#access-key: infNFSe/@Id = "NFS" + the 50-character key, whose last digit is the mod-11 check digit.
  const id = inf.attr('Id') ?? '';
  const accessKey = id.slice(3);
  if (!id.startsWith('NFS') || !isValidNfseKey(accessKey)) throw new NfseReadError(`NFSe/infNFSe/@Id is not "NFS" + a valid access key: ${JSON.stringify(id.slice(0, 60))}`);
  const infDps = inf.at('DPS').at('infDPS');
  if (!infDps.present) throw new NfseReadError('NFSe/infNFSe/DPS/infDPS is missing');
  const view: NfseView = {
    accessKey,
    nNFSe: inf.req('nNFSe'),
    cStat: inf.req('cStat'),
    dhProc: inf.req('dhProc'),
    ambGer: inf.req('ambGer'),
    tpAmb: 2,
    xLocEmi: inf.req('xLocEmi'),
    xLocPrestacao: inf.req('xLocPrestacao'),
    xTribNac: inf.req('xTribNac'),
    verAplic: inf.req('verAplic'),
    emit: emit(inf.at('emit')),
    dps: dpsPart(infDps),
    values: values(inf.at('valores'), infDps.at('valores')),
  };
  view.tpAmb = view.dps.tpAmb;
  optional(view, inf, ['nDFSe', 'tpEmis', 'procEmi', 'cLocIncid', 'xLocIncid', 'xTribMun', 'xNBS', 'xOutInf']);
  const g = ibsCbs(inf.at('IBSCBS'), infDps);
  if (g) view.ibsCbs = g;
  return view;
}
