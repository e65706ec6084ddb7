import { COMPUTED, NFCE, NFE, qr, WRITTEN, type GoodsBreaker, type GoodsDoc } from './goods-breakers.js';
import { plusCent, textAt } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-qr-records.ts (see rule-breakers.ts for the three kinds).

const qrText = (d: GoodsDoc) => textAt(d.xml, ['infNFeSupl', 'qrCode']) ?? '';
/** The document's QR code is in the version 2 layout (online: key|2|tpAmb|idCSC|hash). */
const v2 = (d: GoodsDoc) => /\?p=[0-9A-Z]{44}\|2\|/.test(qrText(d));
/** Version 2, contingency layout (key|2|tpAmb|dd|vNF|digest|idCSC|hash). */
const v2Offline = (d: GoodsDoc) => v2(d) && qrText(d).split('|').length === 8;
/** The `p=` parameter `i` of the QR code replaced by `value(old)`. */
const param = (d: GoodsDoc, i: number, value: (old: string) => string) =>
  qr(d.xml, (outer) => outer.replace(/\?p=([^<]*)</, (_, p: string) => {
    const ps = p.split('|');
    ps[i] = value(ps[i]!);
    return `?p=${ps.join('|')}<`;
  }));
const otherHex = (h: string) => (h[0] === 'a' || h[0] === 'A' ? 'b' : 'a') + h.slice(1);
const REGISTER = 'the authority\'s register of the parties (a deny:<cStat> scenario): test/qr-records-authority.test.ts';
const REFERENCED = 'the authority\'s records (the note a complementary NF-e references: unknown, complementary, canceled, denied): test/qr-records-authority.test.ts';
const SCHEMA = 'shadowed: the XSD pattern of qrCode (PL_009/PL_010) requires this parameter in its format, so the QR code is 225 first (test/qr-records-shadowed.test.ts)';

/** A version "100" QR code (NT 2015.002, the XSD's QRCODE V1 pattern) for the document's key and site. */
function versionOne(d: GoodsDoc): string {
  const text = qrText(d);
  const site = text.slice(0, text.indexOf('?p='));
  const key = /\?p=([0-9A-Z]{44})/.exec(text)![1]!;
  const tpAmb = textAt(d.xml, ['ide', 'tpAmb'])!;
  const vNF = textAt(d.xml, ['ICMSTot', 'vNF'])!;
  const params = [`chNFe=${key}`, 'nVersao=100', `tpAmb=${tpAmb}`, `dhEmi=${'3'.repeat(50)}`, `vNF=${vNF}`, 'vICMS=0.00', `digVal=${'4'.repeat(56)}`, 'cIdToken=000001', `cHashQRCode=${'A'.repeat(40)}`];
  return `${site}?${params.join('&amp;')}`;
}

/** An infNFeSupl that fits the XSD (a version 2 online QR code), for a model 55 document. */
const SUPPLEMENT =
  '<infNFeSupl><qrCode>https://www.example.com/qrcode?p=35000000000000000000000000000000001000000000|2|2|1|' + 'A'.repeat(40) + '</qrCode>' +
  '<urlChave>https://www.example.com/consulta</urlChave></infNFeSupl>';

export const QR_RECORDS_BREAKERS: readonly GoodsBreaker[] = [
  // ZX: infNFeSupl
  { kind: 'document', rule: 'ZX01-10', code: 393, models: NFE, why: WRITTEN, break: (d) => ({ xml: d.xml.replace('</infNFe>', `</infNFe>${SUPPLEMENT}`) }) },
  { kind: 'document', rule: 'ZX02-15', code: 903, models: NFCE, why: WRITTEN, break: (d) => ({ xml: qr(d.xml, (outer) => outer.replace(/>[^<]*</, `>${versionOne(d)}<`)) }) },
  { kind: 'excluded', rule: 'ZX02-232', code: 396, why: SCHEMA },
  { kind: 'excluded', rule: 'ZX02-240', code: 396, why: SCHEMA },
  { kind: 'document', rule: 'ZX02-244', code: 397, models: NFCE, why: WRITTEN, applies: (_c, d) => v2(d), break: (d) => ({ xml: param(d, 2, (t) => (t === '1' ? '2' : '1')) }) },
  { kind: 'excluded', rule: 'ZX02-260', code: 396, why: SCHEMA },
  { kind: 'document', rule: 'ZX02-268', code: 397, models: NFCE, why: COMPUTED, applies: (_c, d) => v2Offline(d), break: (d) => ({ xml: param(d, 3, (dd) => (dd === '28' ? '27' : '28')) }) },
  { kind: 'excluded', rule: 'ZX02-272', code: 396, why: SCHEMA },
  { kind: 'document', rule: 'ZX02-276', code: 397, models: NFCE, why: COMPUTED, applies: (_c, d) => v2Offline(d), break: (d) => ({ xml: param(d, 4, plusCent) }) },
  { kind: 'excluded', rule: 'ZX02-288', code: 396, why: SCHEMA },
  { kind: 'excluded', rule: 'ZX02-292', code: 400, why: SCHEMA },
  { kind: 'document', rule: 'ZX02-296', code: 397, models: NFCE, why: COMPUTED, applies: (_c, d) => v2Offline(d), break: (d) => ({ xml: param(d, 5, otherHex) }) },
  { kind: 'excluded', rule: 'ZX02-300', code: 396, why: SCHEMA },
  {
    kind: 'document', rule: 'ZX02-304', code: 462, models: NFCE, why: 'the gateway writes the issuer\'s registered CSC id; no request field sets it', applies: (_c, d) => v2(d),
    break: (d) => ({ xml: param(d, v2Offline(d) ? 6 : 3, (id) => (id === '999' ? '998' : '999')) }),
  },
  { kind: 'excluded', rule: 'ZX02-308', code: 463, why: 'the authority\'s CSC register (a CSC revoked before the emission): test/qr-records-authority.test.ts' },
  { kind: 'excluded', rule: 'ZX02-312', code: 396, why: SCHEMA },
  { kind: 'excluded', rule: 'ZX02-316', code: 400, why: SCHEMA },
  // 2: the authority's notes
  { kind: 'excluded', rule: '2B08-30', code: 218, why: 'the authority\'s records (the key of a canceled note): test/qr-records-authority.test.ts' },
  // 3A: the referenced note
  { kind: 'excluded', rule: '3BA02-10', code: 267, why: REFERENCED },
  { kind: 'excluded', rule: '3BA02-20', code: 268, why: REFERENCED },
  { kind: 'excluded', rule: '3BA02-30', code: 686, why: REFERENCED },
  { kind: 'excluded', rule: '3BA02-40', code: 687, why: REFERENCED },
  // 7: the SEFAZ's register
  // 1 and 5: the parties' register
  { kind: 'excluded', rule: '1C17-40', code: 301, why: REGISTER },
  { kind: 'excluded', rule: '5E17-40', code: 302, why: REGISTER },
  { kind: 'excluded', rule: '5E17-60', code: 303, why: REGISTER },
];
