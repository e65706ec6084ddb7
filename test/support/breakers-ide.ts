import { ufAbbreviation } from '../../src/fiscal/sefaz/endpoints.js';
import { stateFacts } from '../../src/fiscal/states/states.js';
import { accessKeyCheckDigit } from '../../src/fiscal/layout/access-key.js';
import { parsePfx } from '../../src/fiscal/certificate/pfx.js';
import { buildEnviNFe } from '../../src/fiscal/sefaz/request-payloads.js';
import type { SigningKey } from '../../src/fiscal/xml/signature/sign.js';
import { generateTestPfx } from './generate-certificate.js';
import { BOTH, COMPUTED, ENVELOPE, ISSUER, NFCE, NFE, nfe, sale, type GoodsBreaker, type GoodsCase } from './goods-breakers.js';
import { keyOf } from './nfe-arbitraries.js';
import { editAt, setText, textAt } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-ide.ts (see rule-breakers.ts for the three kinds).

const FIXED_NFCE = 'the NFC-e layout fixes this value (fiscal/xml/nfe/ide.ts); no request field sets it';
const SERIES = 'the gateway numbers every note in its own series (1); no request field sets it';
const PROC_EMI = 'the gateway writes procEmi 0 (issued by the taxpayer\'s application); no request field sets it';
const CONTINGENCY = 'the gateway writes dhCont and xJust exactly when it issues in contingency (tpEmis 9 NFC-e, 6/7 NF-e in SVC)';
const EVENT_LOT = 'a rule of the event lot (NFeRecepcaoEvento4), not of a sale; the gateway writes tpEvento and verEvento itself: test/authority-nfe-events.test.ts';
const SVC = 'the gateway writes tpEmis 6/7 only on the notes it sends to the SVC, and sends them nowhere else (docs/fiscal/svc.md); no request field chooses the authorizer';
const INTERMED = 'the gateway derives indIntermed from the presence (NF-e presenca, NFC-e home delivery)';

/** The ide fields that make up the key, read back: the Id and cDV made to agree with them again. */
export function rekey(xml: string): string {
  const t = (path: string[]) => textAt(xml, path) ?? '';
  const dhEmi = t(['ide', 'dhEmi']);
  const issuer = (t(['emit', 'CNPJ']) || t(['emit', 'CPF'])).padStart(14, '0');
  const body =
    t(['ide', 'cUF']) + dhEmi.slice(2, 4) + dhEmi.slice(5, 7) + issuer + t(['ide', 'mod']) + t(['ide', 'serie']).padStart(3, '0') +
    t(['ide', 'nNF']).padStart(9, '0') + t(['ide', 'tpEmis']) + t(['ide', 'cNF']).padStart(8, '0');
  const dv = String(accessKeyCheckDigit(body));
  return setText(xml, ['ide', 'cDV'], () => dv).replace(/Id="NFe[0-9A-Z]{44}"/, `Id="NFe${body}${dv}"`);
}

/** The SVC that serves the note's state (docs/fiscal/svc.md), and the other one. */
const svcOfNote = (xml: string) => stateFacts(ufAbbreviation(textAt(xml, ['ide', 'cUF']) ?? '') ?? '')?.svc ?? 'SVC-AN';
const otherSvc = (xml: string) => (svcOfNote(xml) === 'SVC-AN' ? 'SVC-RS' : 'SVC-AN');
const isSvc = (xml: string) => ['6', '7'].includes(textAt(xml, ['ide', 'tpEmis']) ?? '');
const ide = (xml: string, name: string, value: string) => setText(xml, ['ide', name], () => value);
const after = (xml: string, name: string, insert: string) => editAt(xml, ['ide', name], (o) => o + insert);
const has = (xml: string, name: string) => textAt(xml, ['ide', name]) !== null;
const withoutContingency = (xml: string) => xml.replace(/<dhCont>[^<]*<\/dhCont>/, '').replace(/<xJust>[^<]*<\/xJust>/, '');

/** An ISO time with its offset (2026-01-10T10:00:00-03:00) moved by `ms`, same offset. */
function shiftIso(iso: string, ms: number): string {
  const offset = iso.slice(19);
  const sign = offset.startsWith('-') ? -1 : 1;
  const offMs = offset === 'Z' || offset === '' ? 0 : sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;
  return new Date(Date.parse(iso) + ms + offMs).toISOString().slice(0, 19) + offset;
}

/** The property test's notes are emitted in 2026-2027 (nfce-, nfe-arbitraries.ts) and received up to 31 days later. */
export const ACROSS_THE_DATES = { notBefore: new Date('2025-01-01T00:00:00Z'), notAfter: new Date('2029-01-01T00:00:00Z') };

const keys = new Map<string, SigningKey>();
/** A signing key of a test certificate, made once per kind. */
function testKey(kind: string, id: string, o: Parameters<typeof generateTestPfx>[3]): SigningKey {
  let key = keys.get(kind);
  if (!key) {
    const parsed = parsePfx(generateTestPfx(id, 'x', 2048, o), 'x');
    keys.set(kind, (key = { privateKey: parsed.privateKey, certificateBase64: parsed.certificateBase64 }));
  }
  return key;
}
/** A key whose certificate names a CPF (e-CPF). */
const cpfSigningKey = () => testKey('cpf', '52998224726', ACROSS_THE_DATES);
/** A certificate that expired before the property test's first note (E02, 291). */
const expiredKey = () => testKey('expired', '11222333000181', { notBefore: new Date('2024-01-01T00:00:00Z'), notAfter: new Date('2025-06-30T00:00:00Z') });
/** A CA certificate (basicConstraints cA true; E01, 290). */
const caKey = () => testKey('ca', '11222333000181', { ...ACROSS_THE_DATES, ca: true });
const CERTIFICATE = 'the gateway signs with the issuer\'s certificate: the upload refuses an expired or not yet valid one, or a CA certificate (platform/issuers/upload-certificate.ts), and a sale with one that is no longer valid is 422 issuer_not_ready';

/** Another note of the lot: `xml` numbered one higher (infNFe Id is an xs:ID: two equal ones break the schema). */
const nextNote = (xml: string, edit: (x: string) => string = (x) => x) =>
  rekey(edit(ide(xml.replace(/^<\?xml[^>]*\?>/, ''), 'nNF', String((Number(textAt(xml, ['ide', 'nNF'])) % 999_999_999) + 1))));

const complementary = (c: GoodsCase) => c.model === 55 && nfe(c).finalidade === 'complementar';
// B25-70: these CFOPs return goods without a referenced document (NT 2013/005).
const returnWithoutReference = (c: GoodsCase) => c.req.items.some((i) => ['1201', '1202', '1410', '1411', '5921', '6921'].includes(i.cfop ?? ''));

/** 500 copies of the first item with the longest texts, paid in cash (change allowed), to a named consumer: a lot above 500 KB. */
function oversized(c: GoodsCase): string {
  const item = { ...c.req.items[0]!, description: 'PRODUTO DE TESTE COM DESCRICAO LONGA '.repeat(4).slice(0, 120), additional_info: 'INFORMACAO ADICIONAL '.repeat(25).slice(0, 500) };
  delete (item as { discount?: number }).discount;
  // An NFC-e stays under its R$ 200,000.00 limit (MOC W16-30, 780), which the gateway checks first.
  if (c.model === 65) Object.assign(item, { quantity: 1, unit_price: Math.min(item.unit_price, 100) });
  delete (c.req as { discount?: number }).discount;
  (c.req as { items: unknown[] }).items = Array.from({ length: 500 }, () => structuredClone(item));
  // Ten times the goods: the taxes an item adds to vNF (ST, IPI) stay well below that.
  const cash = { method: 'dinheiro' as const, amount: Math.ceil(item.quantity * item.unit_price + 1) * 5000 + Math.ceil(c.vNF / 100) };
  if (c.model === 65) {
    delete sale(c).payments;
    sale(c).payment = cash;
    // A sale of R$ 10,000 or more names its consumer.
    if (!sale(c).consumer?.cpf && !sale(c).consumer?.cnpj) sale(c).consumer = { ...sale(c).consumer, cpf: '52998224725' };
    // ... and its address (MOC W16-60, 752).
    const e = c.issuer.endereco;
    sale(c).consumer!.address ??= { street: 'Rua Dois', number: '22', district: 'Bairro', city_code: e.codigo_municipio, city: e.municipio, uf: c.issuer.uf, cep: '01001000' };
  } else {
    // The installments would no longer add up to the invoice (MOC Y10-10); an ajuste or devolucao keeps sem_pagamento.
    delete nfe(c).cobranca;
    if (!['ajuste', 'devolucao'].includes(nfe(c).finalidade ?? 'normal')) {
      delete nfe(c).payments;
      nfe(c).payment = cash;
    }
  }
  return 'items';
}

export const IDE_BREAKERS: readonly GoodsBreaker[] = [
  // 4.1 general rules
  { kind: 'request', rule: 'B01', code: 214, models: BOTH, break: oversized },
  { kind: 'document', rule: 'B06', code: 239, models: BOTH, why: ENVELOPE, break: (d) => ({ xml: d.xml, payload: buildEnviNFe(d.xml, 1).replace('versao="4.00"', 'versao="3.10"') }) },
  {
    kind: 'document', rule: 'GAP03a-1', code: 764, models: BOTH, why: 'the gateway sends one note a lot',
    break: (d) => ({ xml: d.xml, payload: buildEnviNFe(d.xml, 1).replace('</enviNFe>', `${nextNote(d.xml)}</enviNFe>`) }),
  },
  {
    kind: 'document', rule: 'B06-20', code: 765, models: BOTH, why: 'the gateway sends one note a lot',
    break: (d) => {
      const other = nextNote(d.xml, (x) => x.replace(/<mod>(55|65)<\/mod>/, (_, m: string) => `<mod>${m === '55' ? '65' : '55'}</mod>`));
      return { xml: d.xml, payload: buildEnviNFe(d.xml, 1, 0).replace('</enviNFe>', `${other}</enviNFe>`) };
    },
  },
  { kind: 'excluded', rule: 'D04', code: 491, why: `${EVENT_LOT}; at an SVC, any event but the cancellation (NT 2013.007 v1.03 04.4): test/authority-svc.test.ts` },
  { kind: 'excluded', rule: 'D05', code: 492, why: EVENT_LOT },
  { kind: 'excluded', rule: 'D06', code: 493, why: EVENT_LOT },
  { kind: 'document', rule: 'E01', code: 290, models: BOTH, why: CERTIFICATE, signature: true, break: (d) => ({ xml: d.rebuild(caKey()) }) },
  { kind: 'document', rule: 'E02', code: 291, models: BOTH, why: CERTIFICATE, signature: true, break: (d) => ({ xml: d.rebuild(expiredKey()) }) },
  { kind: 'document', rule: 'F03A', code: 227, models: BOTH, why: `${ISSUER} (the certificate upload refuses an e-CPF one)`, break: (d) => ({ xml: d.rebuild(cpfSigningKey()) }) },
  // 4.2.1 ide (B)
  {
    // indSinc 0: a synchronous lot of two is GAP03a-1 (764) first. The second note is of another UF.
    kind: 'document', rule: 'B02-20', code: 476, models: BOTH, why: 'the gateway sends one note a lot',
    break: (d) => {
      const other = nextNote(d.xml, (x) => ide(x, 'cUF', textAt(x, ['ide', 'cUF']) === '35' ? '33' : '35'));
      return { xml: d.xml, payload: buildEnviNFe(d.xml, 1, 0).replace('</enviNFe>', `${other}</enviNFe>`) };
    },
  },
  { kind: 'document', rule: 'B03-10', code: 897, models: BOTH, why: COMPUTED, break: (d) => ({ xml: rekey(ide(d.xml, 'cNF', '12345678')) }) },
  { kind: 'document', rule: 'B09-10', code: 703, models: BOTH, why: 'dhEmi is the moment the gateway signs; the reception comes after it', break: (d) => ({ xml: d.xml, lateByMs: -6 * 60_000 }) },
  { kind: 'document', rule: 'B09-20', code: 228, models: NFE, why: 'dhEmi is the moment the gateway signs; the delay is the transmission', break: (d) => ({ xml: d.xml, lateByMs: 31 * 86_400_000 }) },
  // tpEmis 5 (FS-DA): B09-20 (228) speaks first for tpEmis 1, 6 and 7.
  { kind: 'document', rule: 'B09-30', code: 315, models: NFE, why: COMPUTED, break: (d) => ({ xml: rekey(ide(ide(d.xml, 'tpEmis', '5'), 'dhEmi', '2006-01-10T10:00:00-03:00')) }) },
  { kind: 'document', rule: 'B09-50', code: 315, models: NFCE, why: COMPUTED, break: (d) => ({ xml: rekey(ide(d.xml, 'dhEmi', '2012-06-01T10:00:00-03:00')) }) },
  { kind: 'document', rule: 'B10-10', code: 705, models: NFCE, why: FIXED_NFCE, break: (d) => ({ xml: after(d.xml, 'dhEmi', `<dhSaiEnt>${textAt(d.xml, ['ide', 'dhEmi'])}</dhSaiEnt>`) }) },
  { kind: 'document', rule: 'B11-10', code: 706, models: NFCE, why: FIXED_NFCE, break: (d) => ({ xml: ide(d.xml, 'tpNF', '0') }) },
  { kind: 'document', rule: 'B11a-10', code: 707, models: NFCE, why: FIXED_NFCE, break: (d) => ({ xml: ide(d.xml, 'idDest', '2') }) },
  { kind: 'document', rule: 'B12-10', code: 270, models: BOTH, why: ISSUER, break: (d) => ({ xml: ide(d.xml, 'cMunFG', `${textAt(d.xml, ['ide', 'cUF'])}00000`) }) },
  { kind: 'document', rule: 'B12-20', code: 271, models: BOTH, why: ISSUER, break: (d) => ({ xml: ide(d.xml, 'cMunFG', textAt(d.xml, ['ide', 'cUF']) === '35' ? '3304557' : '3550308') }) },
  { kind: 'document', rule: 'B21-10', code: 709, models: NFCE, why: FIXED_NFCE, break: (d) => ({ xml: ide(d.xml, 'tpImp', '1') }) },
  { kind: 'document', rule: 'B22-10', code: 711, models: NFE, why: 'the NF-e request has no offline contingency (the gateway writes tpEmis 1, or 6/7 in SVC)', break: (d) => ({ xml: rekey(ide(d.xml, 'tpEmis', '9')) }) },
  { kind: 'document', rule: 'B22-34', code: 714, models: NFCE, why: 'the gateway writes tpEmis 1 or 9 on an NFC-e (FS-DA and FS do not exist for it)', break: (d) => ({ xml: rekey(ide(d.xml, 'tpEmis', '5')) }) },
  { kind: 'document', rule: 'B22-30', code: 570, models: BOTH, why: SVC, break: (d) => ({ xml: isSvc(d.xml) ? d.xml : rekey(ide(d.xml, 'tpEmis', '6')), authorizer: 'state' }) },
  // At the SVC of the note's state (B05 refuses any other first), with a tpEmis that is not that SVC's.
  { kind: 'document', rule: 'B22-60', code: 713, models: BOTH, why: SVC, break: (d) => ({ xml: isSvc(d.xml) ? rekey(ide(d.xml, 'tpEmis', svcOfNote(d.xml) === 'SVC-AN' ? '7' : '6')) : d.xml, authorizer: svcOfNote(d.xml) }) },
  { kind: 'document', rule: 'B22-70', code: 783, models: NFCE, why: SVC, break: (d) => ({ xml: rekey(ide(d.xml, 'tpEmis', svcOfNote(d.xml) === 'SVC-AN' ? '6' : '7')), authorizer: svcOfNote(d.xml) }) },
  { kind: 'document', rule: 'B05', code: 410, models: NFE, why: SVC, break: (d) => ({ xml: d.xml, authorizer: otherSvc(d.xml) }) },
  { kind: 'document', rule: 'B25-20', code: 715, models: NFCE, why: FIXED_NFCE, break: (d) => ({ xml: ide(d.xml, 'finNFe', '2') }) },
  { kind: 'request', rule: 'B25-30', code: 254, models: NFE, applies: complementary, break: (c) => (delete nfe(c).referenced_documents, 'referenced_documents') },
  { kind: 'request', rule: 'B25-40', code: 255, models: NFE, applies: complementary, break: (c) => (nfe(c).referenced_documents!.push(keyOf(c.issuer.cnpj, 7)), 'referenced_documents') },
  { kind: 'request', rule: 'B25-50', code: 269, models: NFE, applies: complementary, break: (c) => ((nfe(c).referenced_documents = [keyOf('11222333000181', 5)]), 'referenced_documents[0]') },
  {
    kind: 'request', rule: 'B25-70', code: 321, models: NFE,
    applies: (c) => c.model === 55 && nfe(c).finalidade === 'devolucao' && !returnWithoutReference(c),
    break: (c) => (delete nfe(c).referenced_documents, 'referenced_documents'),
  },
  { kind: 'document', rule: 'B25a-10', code: 716, models: NFCE, why: FIXED_NFCE, break: (d) => ({ xml: ide(d.xml, 'indFinal', '0') }) },
  { kind: 'document', rule: 'B25b-20', code: 717, models: NFCE, why: 'the NFC-e request says only whether the sale is delivered home (indPres 1 or 4)', break: (d) => ({ xml: ide(d.xml, 'indPres', '2') }) },
  {
    kind: 'request', rule: 'B25b-40', code: 864, models: NFE,
    applies: (c) => c.model === 55 && (nfe(c).finalidade ?? 'normal') === 'normal',
    break: (c) => {
      nfe(c).presenca = 'presencial_fora';
      delete nfe(c).referenced_documents;
      delete nfe(c).intermediador;
      return 'referenced_documents';
    },
  },
  { kind: 'document', rule: 'B25c-10', code: 434, models: BOTH, why: INTERMED, applies: (_c, d) => has(d.xml, 'indIntermed'), break: (d) => ({ xml: d.xml.replace(/<indIntermed>[^<]*<\/indIntermed>/, '') }) },
  { kind: 'document', rule: 'B25c-20', code: 435, models: BOTH, why: INTERMED, applies: (_c, d) => !has(d.xml, 'indIntermed'), break: (d) => ({ xml: after(d.xml, 'indPres', '<indIntermed>0</indIntermed>') }) },
  { kind: 'document', rule: 'B26-10', code: 244, models: BOTH, why: SERIES, break: (d) => ({ xml: rekey(ide(d.xml, 'serie', '900')) }) },
  { kind: 'document', rule: 'B26-20', code: 451, models: BOTH, why: PROC_EMI, break: (d) => ({ xml: ide(d.xml, 'procEmi', '1') }) },
  // tpEmis 5 on an NF-e; on an NFC-e B22-34 (714) refuses 5 first, so its offline 9.
  { kind: 'document', rule: 'B26-30', code: 370, models: BOTH, why: PROC_EMI, break: (d) => ({ xml: rekey(ide(ide(ide(d.xml, 'procEmi', '1'), 'serie', '890'), 'tpEmis', textAt(d.xml, ['ide', 'mod']) === '65' ? '9' : '5')) }) },
  {
    kind: 'document', rule: 'B28-10', code: 556, models: BOTH, why: CONTINGENCY, applies: (_c, d) => textAt(d.xml, ['ide', 'tpEmis']) === '1',
    break: (d) => ({ xml: after(d.xml, 'verProc', `<dhCont>${textAt(d.xml, ['ide', 'dhEmi'])}</dhCont><xJust>SEFAZ FORA DO AR HA DUAS HORAS</xJust>`) }),
  },
  {
    // dhCont an hour after dhEmi, received 2 s after dhEmi: past the 5 minutes' tolerance.
    kind: 'document', rule: 'B28-30', code: 558, models: BOTH, why: CONTINGENCY, applies: (_c, d) => has(d.xml, 'dhCont'),
    break: (d) => ({ xml: setText(d.xml, ['ide', 'dhCont'], () => shiftIso(textAt(d.xml, ['ide', 'dhEmi'])!, 3600_000)) }),
  },
  {
    kind: 'document', rule: 'B28-20', code: 557, models: BOTH, why: CONTINGENCY,
    break: (d, c) => {
      const tpEmis = textAt(d.xml, ['ide', 'tpEmis'])!;
      const xml = withoutContingency(d.xml);
      return { xml: ['2', '4', '5', '9'].includes(tpEmis) ? xml : rekey(ide(xml, 'tpEmis', c.model === 65 ? '9' : '5')) };
    },
  },
];
