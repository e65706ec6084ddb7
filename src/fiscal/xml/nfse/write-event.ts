// The NFS-e event request, pedRegEvento 1.01 (docs/fiscal/nfse-national.md#events; pedRegEvento_v1.01.xsd, TCPedRegEvt and
// TCInfPedReg in tiposEventos_v1.01.xsd), written in Canonical XML 1.0 form like the DPS so the bytes
// written are the bytes signed. Values the XSD would refuse are refused here first, with the field named.
import { el, leaf } from '../xml-text.js';
import { isValidNfseKey } from './dps-id.js';
import { nfseRoot, signableTexts, type NfseSignableTexts } from './nfse-texts.js';

export const PED_REG_EVENTO_VERSION = '1.01';

/** TE101101 cMotivo (TSCodJustCanc): 1 issuing error, 2 service not provided, 9 other. */
export type NfseCancellationReason = '1' | '2' | '9';

/** e101101, cancellation (docs/fiscal/nfse-national.md#events): xDesc fixed, cMotivo, xMotivo 15-255 characters (TSMotivo). */
export interface NfseCancellation {
  tpEvento: '101101';
  cMotivo: NfseCancellationReason;
  xMotivo: string;
}

/** e101103, request for tax-office analysis of a cancellation (same shape; cMotivo TSCodJustAnaliseFiscalCanc 1/2/9). */
export interface NfseCancellationAnalysisRequest {
  tpEvento: '101103';
  cMotivo: NfseCancellationReason;
  xMotivo: string;
}

export type NfseEventDetail = NfseCancellation | NfseCancellationAnalysisRequest;

export interface PedRegEventoModel {
  tpAmb: 1 | 2;
  verAplic: string;
  /** TSDateTimeUTC: `2026-03-10T11:00:00-03:00` (offset, no fraction, no Z). */
  dhEvento: string;
  /** CNPJAutor | CPFAutor (xs:choice). */
  author: { CNPJ: string } | { CPF: string };
  chNFSe: string;
  event: NfseEventDetail;
}

/** xDesc enumerations of the official XSD, accented as written there (docs/fiscal/nfse-national.md#events). */
const X_DESC: Record<NfseEventDetail['tpEvento'], string> = {
  '101101': 'Cancelamento de NFS-e',
  '101103': 'Solicitação de Análise Fiscal para Cancelamento de NFS-e',
};

// TSString: characters U+0020-U+00FF, first and last not blank.
const TS_STRING = /^[!-\u00ff](?:[ -\u00ff]*[!-\u00ff])?$/;
// TSDateTimeUTC in short: the XSD also limits the offset to -11:00..+12:00 in whole hours.
const DATE_TIME = /^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9](?:-(?:0[0-9]|1[01])|\+(?:0[0-9]|1[0-2])):00$/;

function requireText(name: string, value: string, min: number, max: number): void {
  if (!TS_STRING.test(value)) throw new RangeError(`${name} must be Latin-1 text without leading or trailing blanks`);
  if (value.length < min || value.length > max) throw new RangeError(`${name} must have ${min} to ${max} characters (has ${value.length})`);
}

/** Everything the XSD checks on a request, checked before a byte is written. */
function check(m: PedRegEventoModel): void {
  if (m.tpAmb !== 1 && m.tpAmb !== 2) throw new RangeError('tpAmb must be 1 or 2');
  requireText('verAplic', m.verAplic, 1, 20);
  if (!DATE_TIME.test(m.dhEvento)) throw new RangeError('dhEvento must be AAAA-MM-DDThh:mm:ss with an offset in whole hours (TSDateTimeUTC)');
  if ('CNPJ' in m.author ? !/^[0-9]{14}$/.test(m.author.CNPJ) : !/^[0-9]{11}$/.test(m.author.CPF)) {
    throw new RangeError('CNPJAutor must be 14 digits, CPFAutor 11 digits');
  }
  // TSChaveNFSe [0-9]{50}; the check digit (docs/fiscal/nfse-national.md#access-key) too, so a mistyped key is not sent.
  if (!/^[0-9]{50}$/.test(m.chNFSe) || !isValidNfseKey(m.chNFSe)) throw new RangeError('chNFSe must be a 50-digit NFS-e key with a valid check digit');
  const e = m.event;
  if (!(e.tpEvento in X_DESC)) throw new RangeError(`event ${String(e.tpEvento)} is not written by this module`);
  if (!['1', '2', '9'].includes(e.cMotivo)) throw new RangeError('cMotivo must be 1, 2 or 9');
  // TSMotivo: 15 to 255 characters of TSString.
  requireText('xMotivo', e.xMotivo, 15, 255);
}

/** `PRE` + chNFSe(50) + tpEvento(6): 59 characters, no nPedRegEvento any more (docs/fiscal/nfse-national.md#events, TSIdPedRegEvt). */
export function pedRegEventoId(chNFSe: string, tpEvento: string): string {
  if (!/^[0-9]{50}$/.test(chNFSe) || !/^[0-9]{6}$/.test(tpEvento)) throw new RangeError('the request Id takes a 50-digit key and a 6-digit event type');
  return 'PRE' + chNFSe + tpEvento;
}

/** infPedReg as placed inside pedRegEvento and in its canonical form. */
export type PedRegEventoTexts = NfseSignableTexts;

/** infPedReg in TCInfPedReg order: tpAmb, verAplic, dhEvento, CNPJAutor|CPFAutor, chNFSe, then the event group. */
export function infPedRegTexts(m: PedRegEventoModel): PedRegEventoTexts {
  check(m);
  const e = m.event;
  const id = pedRegEventoId(m.chNFSe, e.tpEvento);
  const author = 'CNPJ' in m.author ? leaf('CNPJAutor', m.author.CNPJ) : leaf('CPFAutor', m.author.CPF);
  const group = el('e' + e.tpEvento, leaf('xDesc', X_DESC[e.tpEvento]) + leaf('cMotivo', e.cMotivo) + leaf('xMotivo', e.xMotivo));
  const body = leaf('tpAmb', m.tpAmb) + leaf('verAplic', m.verAplic) + leaf('dhEvento', m.dhEvento) + author + leaf('chNFSe', m.chNFSe) + group;
  return signableTexts('infPedReg', id, body);
}

/** The pedRegEvento document around an infPedReg and its Signature (the last child). */
export function pedRegEventoXml(embeddedInfPedReg: string, signatureXml = ''): string {
  return nfseRoot('pedRegEvento', PED_REG_EVENTO_VERSION, embeddedInfPedReg + signatureXml);
}

/** The unsigned request. */
export function writePedRegEvento(m: PedRegEventoModel): string {
  return pedRegEventoXml(infPedRegTexts(m).embedded);
}
