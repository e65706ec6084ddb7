import type { X509Certificate } from 'node:crypto';
import { icpBrasilIdentity } from '../fiscal/certificate/icp-brasil.js';
import { municipality } from '../fiscal/layout/ibge.js';
import { ufAbbreviation } from '../fiscal/sefaz/endpoints.js';
import { stateFacts } from '../fiscal/states/states.js';
import { attributeOf, sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { motivo } from './cstat-messages.js';
import type { NfeFacts } from './nfe-facts.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on ide (B) and the general rules of section 4.1 and 4.3 that a document can break, written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks.

// The words of MOC 7.0 Anexo I where webservices/cstat.json holds another (older) text for the code.
const MOC: Record<number, string> = {
  227: 'Rejeição: CPF do Emitente difere do CPF do Certificado Digital',
  244: 'Rejeição: Processo de Emissão pelo Contribuinte incompatível com a Série da NF',
  269: 'Rejeição: CNPJ/CPF Emitente da NF Complementar difere do CNPJ/CPF da NF Referenciada',
  270: 'Rejeição: Código Município do Fato Gerador de ICMS inexistente',
  315: 'Rejeição: Data de Emissão anterior ao início da autorização de Nota Fiscal na UF',
  370: 'Rejeição: Processo de emissão pelo Fisco com Tipo de Emissão inválido',
  434: 'Rejeição: NF-e sem indicativo do intermediador',
  435: 'Rejeição: NF-e não pode ter o indicativo do intermediador',
  451: 'Rejeição: Processo de Emissão pelo Fisco incompatível com a Série da NF',
  714: 'Rejeição: NFC-e com contingência inválida (tpEmis=2, 4 (a critério da UF) ou 5)',
  864: 'Rejeição: NF-e com indicativo de Operação presencial, fora do estabelecimento e não informada NF referenciada',
  897: 'Rejeição: Código numérico em formato inválido.',
};

const reject = (cStat: number, detail: string): Rejection => ({ cStat, xMotivo: MOC[cStat] ?? motivo(cStat), detail });
const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner.trim() ?? '';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// B09-10 (703): the tolerance for the clocks of the company and the authority.
const CLOCK_TOLERANCE_MS = 5 * MINUTE;
// B09-20 (228): 30 days, "or another limit the SEFAZ defines": the simulator takes the table's.
const MAX_EMISSION_DELAY_MS = 30 * DAY;
// B09-30 / B09-50 (315): each UF started later than the first note of the country; the simulator
// knows only these national firsts, so it never refuses a date a UF accepts.
const FIRST_NFE = Date.parse('2006-09-14T00:00:00-03:00');
const FIRST_NFCE = Date.parse('2013-03-01T00:00:00-03:00');
// B03-10 (897, NT 2019.001): the cNF values that are no random code.
const FORBIDDEN_CNF = new Set([
  ...Array.from({ length: 10 }, (_, d) => String(d).repeat(8)),
  '12345678', '23456789', '34567890', '45678901', '56789012', '67890123', '78901234', '89012345', '90123456', '01234567',
]);
// B25-70 (321): returns that need no referenced document (NT 2013/005 v 1.20).
const RETURN_WITHOUT_REFERENCE_CFOPS = new Set(['1201', '1202', '1410', '1411', '5921', '6921']);

/** What the ide rules read of one NF-e besides NfeFacts. */
interface Ide {
  ide: ElementSlice | null;
  get: (name: string) => string;
  has: (name: string) => boolean;
  /** NFref children, by kind (refNFe, refNF, refNFP, refCTe, refECF, refNFeSig). */
  refs: Array<{ kind: string; slice: ElementSlice }>;
  cfops: string[];
}

function ideOf(f: NfeFacts): Ide {
  const inf = sliceElement(f.xml, 'infNFe');
  const ide = el(inf, 'ide');
  const refs = (ide ? sliceAll(ide.inner, 'NFref') : []).flatMap((r) => {
    const kind = /^\s*<(?:[A-Za-z0-9_]+:)?([A-Za-z0-9]+)[\s>]/.exec(r.inner)?.[1];
    const slice = kind ? sliceElement(r.inner, kind) : null;
    return kind && slice ? [{ kind, slice }] : [];
  });
  const cfops = (inf ? sliceAll(inf.inner, 'det') : []).map((d) => textIn(el(d, 'prod'), 'CFOP'));
  return { ide, get: (name) => textIn(ide, name), has: (name) => el(ide, name) !== null, refs, cfops };
}

/** B03-10 (897): cNF is no known sequence and differs from nNF. */
function cnfRejection(f: NfeFacts): Rejection | null {
  const cnf = f.cNF.padStart(8, '0');
  if (FORBIDDEN_CNF.has(cnf)) return reject(897, `cNF ${f.cNF} is a forbidden sequence`);
  return Number(f.cNF) === Number(f.nNF) ? reject(897, `cNF ${f.cNF} equals nNF ${f.nNF}`) : null;
}

/** B09-10 (703), B09-20 (228), B09-30 / B09-50 (315), B10-10 (705). */
function dateRejection(f: NfeFacts, x: Ide, now: Date): Rejection | null {
  const emitted = Date.parse(f.dhEmi);
  if (Number.isNaN(emitted)) return null;
  if (emitted > now.getTime() + CLOCK_TOLERANCE_MS) return reject(703, `dhEmi ${f.dhEmi} is after the reception ${now.toISOString()}`);
  // Exception 1 (any tpEmis) and 2 (late notes accepted) are the UF's choice: the table's rule is tpEmis 1, 6, 7.
  if (f.mod === '55' && ['1', '6', '7'].includes(f.tpEmis) && now.getTime() - emitted > MAX_EMISSION_DELAY_MS) {
    return reject(228, `dhEmi ${f.dhEmi} is more than 30 days before the reception`);
  }
  if (emitted < (f.mod === '65' ? FIRST_NFCE : FIRST_NFE)) return reject(315, `dhEmi ${f.dhEmi} is before the first ${f.mod === '65' ? 'NFC-e' : 'NF-e'} of the country`);
  if (f.mod === '65' && x.has('dhSaiEnt')) return reject(705, 'NFC-e with dhSaiEnt');
  return null;
}

/** B11-10 (706), B11a-10 (707), B12-10 (270), B12-20 (271), B21-10 (709), B22-10 (711), B22-34 (714). */
function placeAndFormRejection(f: NfeFacts, x: Ide): Rejection | null {
  const nfce = f.mod === '65';
  if (nfce && x.get('tpNF') === '0') return reject(706, 'NFC-e with tpNF 0');
  if (nfce && x.get('idDest') !== '1') return reject(707, `NFC-e with idDest ${x.get('idDest')}`);
  const cMunFG = x.get('cMunFG');
  if (!municipality(cMunFG)) return reject(270, `cMunFG ${cMunFG} is no IBGE municipality`);
  if (cMunFG.slice(0, 2) !== f.cUF) return reject(271, `cMunFG ${cMunFG} is not in cUF ${f.cUF}`);
  if (nfce && !['4', '5'].includes(x.get('tpImp'))) return reject(709, `NFC-e with tpImp ${x.get('tpImp')}`);
  if (!nfce && f.tpEmis === '9') return reject(711, 'NF-e with tpEmis 9');
  // B22-34 (optional in the table, played everywhere): the NFC-e contingencies of Ajuste SINIEF 19/16 cl. 11 are
  // offline (9), ECF/SAT and EPEC (4), so no state has an FS / FS-DA NFC-e (2, 5); EPEC only where the state runs it
  // (the rule's observation, src/fiscal/states/states.ts nfceEpec; docs/fiscal/offline-contingency.md#epec-sp).
  if (nfce && (['2', '5'].includes(f.tpEmis) || (f.tpEmis === '4' && !stateFacts(ufAbbreviation(f.cUF) ?? '')?.nfceEpec))) {
    return reject(714, `NFC-e with tpEmis ${f.tpEmis} in cUF ${f.cUF}`);
  }
  return null;
}

/** B22-30 (570), B22-60 (713), B22-70 (783): the tpEmis and model each authorizer takes (docs/fiscal/svc.md). */
function authorizerRejection(f: NfeFacts, ctx: ContentContext): Rejection | null {
  const at = ctx.authorizer ?? 'state';
  // B22-30: the state's own authorizer takes no SCAN (3) or SVC (6, 7) note.
  if (at === 'state') return ['3', '6', '7'].includes(f.tpEmis) ? reject(570, `tpEmis ${f.tpEmis} at the state's authorizer`) : null;
  // B22-60: an SVC takes only its own tpEmis (6 at SVC-AN, 7 at SVC-RS).
  if (f.tpEmis !== (at === 'SVC-AN' ? '6' : '7')) return reject(713, `tpEmis ${f.tpEmis} at ${at}`);
  // B22-70: no SVC authorizes an NFC-e.
  return f.mod === '65' ? reject(783, `NFC-e at ${at}`) : null;
}

/** The referenced notes the finNFe 2 rules count: NF-e / NFC-e (refNFe) and model 1 (refNF). */
function notesReferenced(x: Ide): Array<{ kind: string; slice: ElementSlice }> {
  return x.refs.filter((r) => r.kind === 'refNFe' || r.kind === 'refNF');
}

function referencedIssuer(r: { kind: string; slice: ElementSlice }): string {
  return r.kind === 'refNFe' ? r.slice.inner.trim().slice(6, 20) : (textIn(r.slice, 'CNPJ') || textIn(r.slice, 'CPF')).padStart(14, '0');
}

/** B25-20 (715), B25-30 (254), B25-40 (255), B25-50 (269), B25-70 (321). */
function purposeRejection(f: NfeFacts, x: Ide): Rejection | null {
  if (f.mod === '65') return f.finNFe !== '1' ? reject(715, `NFC-e with finNFe ${f.finNFe}`) : null;
  if (f.finNFe === '2') {
    const notes = notesReferenced(x);
    if (notes.length === 0) return reject(254, 'complementary NF-e without a referenced note');
    if (notes.length > 1) return reject(255, `complementary NF-e with ${notes.length} referenced notes`);
    const issuer = (f.emitCnpj ?? f.emitCpf ?? '').padStart(14, '0');
    if (referencedIssuer(notes[0]!) !== issuer) return reject(269, `referenced note of ${referencedIssuer(notes[0]!)}, issuer ${issuer}`);
  }
  const returnRefs = x.refs.filter((r) => ['refNFe', 'refNF', 'refNFP', 'refECF'].includes(r.kind));
  if (f.finNFe === '4' && returnRefs.length === 0 && !x.cfops.some((c) => RETURN_WITHOUT_REFERENCE_CFOPS.has(c))) {
    return reject(321, 'return NF-e without a referenced document');
  }
  return null;
}

/** B25a-10 (716), B25b-20 (717), B25b-40 (864), B25c-10 (434), B25c-20 (435). */
function presenceRejection(f: NfeFacts, x: Ide): Rejection | null {
  const indPres = x.get('indPres');
  if (f.mod === '65' && x.get('indFinal') === '0') return reject(716, 'NFC-e with indFinal 0');
  if (f.mod === '65' && indPres !== '1' && indPres !== '4') return reject(717, `NFC-e with indPres ${indPres}`);
  if (f.mod === '55' && indPres === '5' && !x.refs.some((r) => r.kind === 'refNFe' || r.kind === 'refNF')) {
    return reject(864, 'indPres 5 without refNFe or refNF');
  }
  const intermediated = ['2', '3', '4', '9'].includes(indPres);
  // B25b-10 (794, nfe55-rules.ts) refuses an NF-e with indPres 4 before B25c-10 is reached.
  const homeDeliveryNfe = f.mod === '55' && indPres === '4';
  if (intermediated && !homeDeliveryNfe && !x.has('indIntermed')) return reject(434, `indPres ${indPres} without indIntermed`);
  if (!intermediated && x.has('indIntermed')) return reject(435, `indPres ${indPres} with indIntermed`);
  return null;
}

/** B26-10 (244), B26-20 (451), B26-30 (370) (NT 2018.001). */
function processRejection(f: NfeFacts, x: Ide): Rejection | null {
  const serie = Number(f.serie);
  const byFisco = ['1', '2'].includes(x.get('procEmi'));
  if (!byFisco && !(serie <= 889 || (serie >= 920 && serie <= 969))) return reject(244, `procEmi ${x.get('procEmi')} with serie ${f.serie}`);
  if (byFisco && !(serie >= 890 && serie <= 919)) return reject(451, `procEmi ${x.get('procEmi')} with serie ${f.serie}`);
  if (byFisco && !['1', '6', '7'].includes(f.tpEmis)) return reject(370, `procEmi ${x.get('procEmi')} with tpEmis ${f.tpEmis}`);
  return null;
}

// B28-30, observation 2: five minutes' tolerance for the clocks of the issuer's and the authority's servers.
const DH_CONT_TOLERANCE_MS = 5 * 60_000;

/** B28-10 (556), B28-20 (557), B28-30 (558). */
function contingencyRejection(f: NfeFacts, x: Ide, now: Date): Rejection | null {
  const informed = x.has('dhCont') || x.has('xJust');
  if (f.tpEmis === '1' && informed) return reject(556, 'tpEmis 1 with dhCont / xJust');
  if (['2', '4', '5', '9'].includes(f.tpEmis) && !(x.has('dhCont') && x.has('xJust'))) return reject(557, `tpEmis ${f.tpEmis} without dhCont and xJust`);
  const dhCont = x.has('dhCont') ? Date.parse(x.get('dhCont')) : Number.NaN;
  if (dhCont > now.getTime() + DH_CONT_TOLERANCE_MS) return reject(558, `dhCont ${x.get('dhCont')} after the reception`);
  return null;
}

// Certificates are parsed once per signer (signature-check.ts): so is their ICP-Brasil CPF.
const cpfOfCertificate = new WeakMap<X509Certificate, string | null>();
function certificateCpf(cert: X509Certificate): string | null {
  let cpf = cpfOfCertificate.get(cert);
  if (cpf === undefined) {
    const cn = /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1] ?? '';
    cpf = icpBrasilIdentity(cert.raw, cn).cpf;
    cpfOfCertificate.set(cert, cpf);
  }
  return cpf;
}

/** F03A (227, NT 2018.001): a signature certificate with a CPF signs only for that CPF. */
function signerCpfRejection(f: NfeFacts, signer: X509Certificate): Rejection | null {
  const cpf = certificateCpf(signer);
  return cpf && f.emitCpf !== cpf ? reject(227, `certificate CPF ${cpf}, issuer ${f.emitCpf ?? f.emitCnpj ?? '(none)'}`) : null;
}

/** The first of these rules `f` breaks, or null. */
export function ideRejection(f: NfeFacts, ctx: ContentContext): Rejection | null {
  const x = ideOf(f);
  return (
    signerCpfRejection(f, ctx.signer) ??
    cnfRejection(f) ??
    dateRejection(f, x, ctx.now) ??
    placeAndFormRejection(f, x) ??
    authorizerRejection(f, ctx) ??
    purposeRejection(f, x) ??
    presenceRejection(f, x) ??
    processRejection(f, x) ??
    contingencyRejection(f, x, ctx.now)
  );
}

// Lot rules (enviNFe), in the authority's order around the schema check.

/** B01 (214): the data message (nfeDadosMsg) above 500 KB (read as 500 x 1024 bytes, the lenient reading; the gateway holds itself to 500,000). */
export const MAX_MESSAGE_BYTES = 500 * 1024;

/** Rules of the message before the schema: B01 (214) size, B06 (239) the version of the lot. */
export function messageRejection(payload: string): Rejection | null {
  if (Buffer.byteLength(payload, 'utf8') > MAX_MESSAGE_BYTES) return reject(214, `message of ${Buffer.byteLength(payload, 'utf8')} bytes`);
  const root = sliceElement(payload, 'enviNFe');
  const versao = root ? attributeOf(root, 'versao') : null;
  if (versao !== null && versao !== undefined && versao !== '4.00') return reject(239, `enviNFe versao ${versao}`);
  return null;
}

/** Rules of the lot after the schema: GAP03a-1 (764) synchronous lot of several, B06-20 (765) models mixed. */
export function lotRejection(payload: string, nfes: readonly string[]): Rejection | null {
  const indSinc = textIn(sliceElement(payload, 'enviNFe'), 'indSinc');
  if (indSinc === '1' && nfes.length > 1) return reject(764, `indSinc 1 with ${nfes.length} NF-e`);
  const models = new Set(nfes.map((n) => textIn(el(sliceElement(n, 'infNFe'), 'ide'), 'mod')));
  return models.size > 1 ? reject(765, `lot with models ${[...models].join(', ')}`) : null;
}

/**
 * B02-20 (476): an NF-e of the lot whose cUF is not the first NF-e's (the MOC: meaningful for the
 * SVC, which serves several UFs; at a UF's own SEFAZ the lot is of that UF anyway).
 */
export function lotUfRejection(f: NfeFacts, lotCuf: string): Rejection | null {
  return f.cUF !== lotCuf ? reject(476, `cUF ${f.cUF} in a lot whose first NF-e is of cUF ${lotCuf}`) : null;
}
