import type { X509Certificate } from 'node:crypto';
import { icpBrasilIdentity } from '../fiscal/certificate/icp-brasil.js';
import { cnpjRootMatches } from '../fiscal/certificate/pfx.js';
import { verifyNfceQrCode, type QrRejection } from '../fiscal/qrcode/verify-qr-code.js';
import { sliceElement } from '../fiscal/sefaz/xml-slice.js';
import { nfceUrls } from '../fiscal/qrcode/nfce-urls.js';
import { ufAbbreviation } from '../fiscal/sefaz/endpoints.js';
import { accessKeyCheckDigit } from '../fiscal/layout/access-key.js';
import { respTecRequired } from '../fiscal/states/states.js';
import { cnpjProblem } from '../fiscal/tax-id.js';
import { motivo } from './cstat-messages.js';
import type { NfeFacts } from './nfe-facts.js';

export interface Rejection {
  cStat: number;
  xMotivo: string;
  /** Plain-words detail for logs and tests (never sent: SEFAZ answers the table text). */
  detail: string;
}

const reject = (cStat: number, detail: string, xMotivo = motivo(cStat)): Rejection => ({ cStat, xMotivo, detail });

// MOC homologation phrases (docs/fiscal/nfce-rules.md): first item description (373) and recipient name (598).
export const HOMOLOGATION_ITEM = 'NOTA FISCAL EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';
export const HOMOLOGATION_RECIPIENT = 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';
// docs/fiscal/cstat.md, docs/fiscal/nfce-rules.md: an online NFC-e must reach the authority within about 5 minutes of dhEmi (704).
export const NFCE_MAX_DELAY_MS = 5 * 60_000;
const ON_TIME_TP_EMIS: ReadonlySet<string> = new Set(['1', '3', '6', '7']);

const cents = (v: string) => Math.round(Number(v) * 100);

// Certificates are parsed once per issuer (signature-check.ts): so is their ICP-Brasil identity.
const cnpjOfCertificate = new WeakMap<X509Certificate, string | null>();
function certificateCnpj(cert: X509Certificate): string | null {
  let cnpj = cnpjOfCertificate.get(cert);
  if (cnpj === undefined) {
    const cn = /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1] ?? '';
    cnpj = icpBrasilIdentity(cert.raw, cn).cnpj;
    cnpjOfCertificate.set(cert, cnpj);
  }
  return cnpj;
}

/**
 * Identity rules, in the authority's order after the signature: certificate CNPJ root (213),
 * key check digit (253, MOC B23-10), Id against the ide fields (502), cNF of the key (562).
 */
export function identityRejection(f: NfeFacts, signer: X509Certificate): Rejection | null {
  // Sandbox test certificates carry no CNPJ: only a certificate that names one can contradict the issuer.
  const certCnpj = certificateCnpj(signer);
  if (certCnpj && f.emitCnpj && !cnpjRootMatches(certCnpj, f.emitCnpj)) {
    return reject(213, `certificate CNPJ ${certCnpj} has another root than issuer ${f.emitCnpj}`);
  }
  const key = f.accessKeyFromId;
  if (key.length !== 44) return reject(502, `infNFe Id ${f.id} does not hold a 44-character key`);
  if (accessKeyCheckDigit(key.slice(0, 43)) !== Number(key[43])) {
    return reject(253, `check digit ${key[43]} of ${key} should be ${accessKeyCheckDigit(key.slice(0, 43))}`);
  }
  const aamm = f.dhEmi.slice(2, 4) + f.dhEmi.slice(5, 7);
  const issuer = (f.emitCnpj ?? f.emitCpf ?? '').padStart(14, '0');
  const expected =
    f.cUF + aamm + issuer + f.mod + f.serie.padStart(3, '0') + f.nNF.padStart(9, '0') + f.tpEmis + key.slice(35, 43) + f.cDV;
  if (expected !== key) return reject(502, `key ${key} differs from the ide fields ${expected}`);
  if (key.slice(35, 43) !== f.cNF.padStart(8, '0')) {
    return reject(562, `cNF ${f.cNF} differs from the key's ${key.slice(35, 43)}`, `${motivo(562)}[chNFe:${key}]`);
  }
  return null;
}

export interface ContentContext {
  now: Date;
  signer: X509Certificate;
  digestValue: string;
  /** CSCs registered for the issuer in this environment, by id (no leading zeros). */
  cscs: ReadonlyMap<string, { token: string; revoked: boolean; revokedAt?: Date | null }>;
  /** Who is authorizing: the state's authorizer (default) or an SVC (MOC B22-30, B22-60, B22-70). */
  authorizer?: 'state' | 'SVC-AN' | 'SVC-RS';
}

/** Content rules after the duplicate check: homologation phrases, totals and payments, QR code, lateness. */
export function contentRejection(f: NfeFacts, ctx: ContentContext): Rejection | null {
  const nfce = f.mod === '65';
  if (f.tpAmb === '2') {
    if (nfce && f.items[0]?.xProd !== HOMOLOGATION_ITEM) return reject(373, `first item is "${f.items[0]?.xProd}"`);
    if (f.dest?.xNome && f.dest.xNome !== HOMOLOGATION_RECIPIENT) return reject(598, `recipient is "${f.dest.xNome}"`);
  }
  const respTec = respTecRejection(f);
  if (respTec) return respTec;
  const itemsTotal = f.items.filter((i) => i.indTot === '1').reduce((sum, i) => sum + cents(i.vProd), 0);
  if (itemsTotal !== cents(f.vProdTotal)) return reject(564, `vProd ${f.vProdTotal} but items sum ${itemsTotal / 100}`);
  const payment = paymentRejection(f);
  if (payment) return payment;
  if (nfce) {
    // MOC N12-50 (741) and N12-60 (740): an NFC-e carries neither ICMSPart nor ICMSST. The text of
    // 740 is MOC 7.0 section 4.4's (cstat_nfe.csv); webservices/cstat.json gives 740 to CST 51 instead.
    const n = f.items.findIndex((i) => i.icmsGroup === 'ICMSPart' || i.icmsGroup === 'ICMSST');
    if (n >= 0 && f.items[n]!.icmsGroup === 'ICMSPart') return reject(741, `item ${n + 1} has ICMSPart`);
    if (n >= 0) return reject(740, `item ${n + 1} has ICMSST`, `Rejeição: Item com Repasse de ICMS retido por Substituto Tributário [nItem: ${n + 1}]`);
    const qr = qrRejection(f, ctx);
    if (qr) return qr;
    const late = ctx.now.getTime() - Date.parse(f.dhEmi);
    // MOC B09-40: only an NFC-e with tpEmis 1 (or 3, 6, 7); a contingency one (9 offline, 4 SP's EPEC) is sent late by design.
    if (ON_TIME_TP_EMIS.has(f.tpEmis) && late > NFCE_MAX_DELAY_MS) return reject(704, `dhEmi ${f.dhEmi} is ${Math.round(late / 1000)} s old`);
  } else if (sliceElement(f.xml, 'infNFeSupl')) {
    // MOC ZX01-10 (393, NT 2015.002): the supplementary group (QR code) belongs to the NFC-e only.
    return reject(393, 'an NF-e (model 55) carries infNFeSupl');
  }
  return null;
}

/**
 * MOC 7.0 group YA (NT 2016.002): payments against vNF. YA03-10 (865, NFC-e; not for adjustment or
 * return notes, nor tPag 90), YA03-20 (866: more paid than vNF and no vTroco), YA09-10 (869: vTroco
 * is not sum(vPag) - vNF). docs/fiscal/rule-table.md; the rule text is in assets/fiscal/rules.
 */
function paymentRejection(f: NfeFacts): Rejection | null {
  if (f.payments.length === 0) return null;
  const paid = f.payments.reduce((sum, v) => sum + cents(v), 0);
  const vNF = cents(f.vNF);
  const noPayment = f.paymentMethods.includes('90');
  if (f.mod === '65' && paid < vNF && f.finNFe !== '3' && f.finNFe !== '4' && !noPayment) {
    return reject(865, `payments ${paid / 100} are less than vNF ${f.vNF}`);
  }
  if (f.vTroco === null) return paid > vNF ? reject(866, `payments ${paid / 100} exceed vNF ${f.vNF} and vTroco is absent`) : null;
  if (cents(f.vTroco) !== paid - vNF) return reject(869, `vTroco ${f.vTroco} but sum(vPag) - vNF is ${(paid - vNF) / 100}`);
  return null;
}

/**
 * MOC ZD01-10 (972) and ZD02-10 (973), in force in the states docs/fiscal/states.md lists (AM, MS, PE,
 * PR, SC, TO): the group is required and its CNPJ must be a real one. Elsewhere both are "future
 * implementation", so the simulator does not apply them there (never stricter than the authority).
 */
function respTecRejection(f: NfeFacts): Rejection | null {
  const uf = ufAbbreviation(f.cUF);
  if (!uf || !respTecRequired(uf)) return null;
  if (f.respTecCnpj === null) return reject(972, `${uf} requires infRespTec`);
  const bad = /^[0-9]{14}$/.test(f.respTecCnpj) ? cnpjProblem(f.respTecCnpj) : 'not 14 digits';
  return bad ? reject(973, `infRespTec/CNPJ ${f.respTecCnpj} ${bad}`) : null;
}

function qrRejection(f: NfeFacts, ctx: ContentContext): Rejection | null {
  if (!f.qrCode) return reject(394, 'infNFeSupl/qrCode missing');
  const uf = ufAbbreviation(f.cUF);
  const tpAmb = f.tpAmb === '1' ? 1 : 2;
  if (!uf) return reject(226, `cUF ${f.cUF} is unknown`);
  const dest = f.dest?.kind ? { kind: f.dest.kind, id: f.dest.id } : undefined;
  const found = verifyNfceQrCode(f.qrCode, {
    expectedBaseUrl: nfceUrls(uf, tpAmb).qrCodeBaseUrl,
    accessKey: f.accessKeyFromId,
    tpAmb,
    tpEmis: Number(f.tpEmis),
    dhEmi: f.dhEmi,
    vNF: f.vNF,
    digestValue: ctx.digestValue,
    ...(dest ? { dest } : {}),
    cscLookup: (id) => ctx.cscs.get(id),
    publicKey: ctx.signer.publicKey,
  });
  return found ? reject(found.cStat, found.reason, qrMotivo(found)) : null;
}

/** The table's words, naming the parameter as the MOC's rows do ("... inexistente (tpAmb)"). */
function qrMotivo(found: QrRejection): string {
  if (found.xMotivo) return found.xMotivo;
  const words = motivo(found.cStat);
  return found.param ? words.replace(/\([^)]*\)$/, `(${found.param})`) : words;
}
