// MOC 7.0 Anexo I, group ZX (NT 2016.002): the parameters of a version "2" QR code, checked one by
// one in the table's order once the site (395), key (396/397) and version (398) are known good:
// tpAmb (ZX02-240/244), then for a contingency NFC-e (tpEmis 9) the day (260/268), vNF (272/276)
// and DigestValue (288/292/296), then idCSC (300/304/308) and the hash (312/316/320).
// Not informed -> 396, not hexadecimal -> 400, differs from the NFC-e -> 397 (the parameter named).
import { cscHash, cscIdParam, dayOfEmission, hexOfAscii, moneyParam } from './qr-payload.js';
import type { QrRejection, QrVerifyContext } from './qr-verdict.js';

const HEX = /^[0-9a-fA-F]+$/;

const missing = (param: string): QrRejection => ({ cStat: 396, reason: `QR code parameter ${param} is not informed`, param });
const differs = (param: string, detail: string): QrRejection => ({ cStat: 397, reason: `QR code ${param} ${detail}`, param });
const notHex = (param: string, xMotivo: string): QrRejection => ({ cStat: 400, reason: `QR code ${param} is not hexadecimal`, param, xMotivo });

// The words of rows ZX02-292 and ZX02-316 (400 is not in the section 4.4 list the simulator reads).
const DIGEST_NOT_HEX = 'Rejeição: Parâmetro Digest Value no QR-Code não está no formato hexadecimal (Caracteres: “0-9”, “a-f”,“A-F”).';
const HASH_NOT_HEX = 'Rejeição: Parâmetro Hash no QR-Code não está no formato hexadecimal (Caracteres: “0-9”, “a-f”,“A-F”).';

/** `params`: the `p=` text split at `|` (key and version already checked). */
export function verifyQrV2(params: readonly string[], ctx: QrVerifyContext): QrRejection | null {
  const at = (i: number) => params[i] ?? '';
  // ZX02-240 (396), ZX02-244 (397)
  if (at(2) === '') return missing('tpAmb');
  if (at(2) !== String(ctx.tpAmb)) return differs('tpAmb', `${at(2)} differs from the NFC-e's ${ctx.tpAmb}`);
  const offline = ctx.tpEmis === 9;
  if (params.length > (offline ? 8 : 5)) return { cStat: 464, reason: `QR code has ${params.length} parameters, more than the ${offline ? 'offline' : 'online'} layout` };
  if (offline) {
    const found = offlineValues(at(3), at(4), at(5), ctx);
    if (found) return found;
  }
  const [idCscText, hash] = offline ? [at(6), at(7)] : [at(3), at(4)];
  // ZX02-300 (396), ZX02-304 (462), ZX02-308 (463)
  if (idCscText === '') return missing('cIdToken');
  let idCsc: string;
  try {
    idCsc = cscIdParam(idCscText);
  } catch {
    return { cStat: 462, reason: 'QR code CSC id is malformed' };
  }
  const csc = ctx.cscLookup?.(idCsc);
  if (!csc) return { cStat: 462, reason: `CSC id ${idCsc} is not registered for the issuer` };
  // ZX02-308: "revogado pela empresa anteriormente à Data de Emissão": a CSC revoked after the note
  // was issued (a contingency note transmitted later) still signs it. Unknown revocation time: revoked.
  const revokedAt = csc.revokedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  if (csc.revoked && revokedAt < Date.parse(ctx.dhEmi)) return { cStat: 463, reason: `CSC id ${idCsc} was revoked before the emission` };
  // ZX02-312 (396), ZX02-316 (400), ZX02-320 (464)
  if (hash === '') return missing('cHashQRCode');
  if (!HEX.test(hash)) return notHex('cHashQRCode', HASH_NOT_HEX);
  const values = offline
    ? [ctx.accessKey, '2', String(ctx.tpAmb), dayOfEmission(ctx.dhEmi), moneyParam(ctx.vNF), hexOfAscii(ctx.digestValue), idCsc]
    : [ctx.accessKey, '2', String(ctx.tpAmb), idCsc];
  return cscHash(values.join('|'), csc.token) === hash.toUpperCase() ? null : { cStat: 464, reason: 'QR code hash differs from the one computed with the NFC-e data' };
}

/** ZX02-260/268 (day), ZX02-272/276 (vNF), ZX02-288/292/296 (DigestValue): a contingency NFC-e's values. */
function offlineValues(day: string, vNF: string, digest: string, ctx: QrVerifyContext): QrRejection | null {
  if (day === '') return missing('dhEmi');
  if (day !== dayOfEmission(ctx.dhEmi)) return differs('dhEmi', `day ${day} differs from dhEmi ${ctx.dhEmi}`);
  if (vNF === '') return missing('vNF');
  if (vNF !== moneyParam(ctx.vNF)) return differs('vNF', `${vNF} differs from vNF ${ctx.vNF}`);
  if (digest === '') return missing('digVal');
  if (!HEX.test(digest)) return notHex('digVal', DIGEST_NOT_HEX);
  if (digest.toLowerCase() !== hexOfAscii(ctx.digestValue).toLowerCase()) return differs('digVal', 'differs from the DigestValue of the NFC-e signature');
  return null;
}
