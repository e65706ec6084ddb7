import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedNfce, uniqueCnpj } from './support/authority-fixtures.js';
import { signedInutilization } from './support/authority-events.js';
import type { AuthorizationOutcome } from '../src/fiscal/sefaz/outcomes.js';
import { BA, registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';
import { checkEnvelopedSignature } from '../src/authority-sim/signature-check.js';

let h: AuthorityHarness;
let cnpj: string;
let nNF = 1;

beforeAll(async () => {
  h = await startAuthorityHarness();
  cnpj = uniqueCnpj();
  await registerTestCsc(h.sim, cnpj);
});
afterAll(() => h.close());

const authorize = (xml: string, headers?: Record<string, string>) =>
  h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1, ...(headers ? { headers } : {}) });

describe('authorization over mutual TLS', () => {
  it('authorizes a valid NFC-e with a signed 15-digit protocol and keeps the protNFe bytes', async () => {
    const { xml, accessKey } = signedNfce(h.issuer, { cnpj, nNF: nNF++ });
    const out = await authorize(xml);
    expect(out.kind, JSON.stringify(out)).toBe('authorized');
    if (out.kind !== 'authorized') return;
    expect(out.cStat).toBe(100);
    expect(out.protocol.info.accessKey).toBe(accessKey);
    expect(out.protocol.info.nProt).toMatch(/^129[0-9]{12}$/);
    expect(out.responseXml).toContain(out.protocol.protNFeXml);
    // The protocol is signed by the simulator the way SEFAZ signs it: infProt Id="ID<nProt>".
    const prot = out.protocol.protNFeXml.replace('<protNFe versao="4.00">', '<protNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">');
    expect(checkEnvelopedSignature(prot, 'infProt').ok).toBe(true);
    expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
  });
});

describe('authorization rejections, in the authority order', () => {
  const rejected = async (spec: Parameters<typeof signedNfce>[1] | string, headers?: Record<string, string>) => {
    const xml = typeof spec === 'string' ? spec : signedNfce(h.issuer, spec).xml;
    const out = await authorize(xml, headers);
    return out.kind === 'rejected' || out.kind === 'duplicate' || out.kind === 'denied' ? out : expect.unreachable(JSON.stringify(out));
  };

  it('243 for a message that is not XML', async () => {
    expect((await rejected('<NFe><infNFe>broken</NFe>')).cStat).toBe(243);
  });

  it('225 for an NF-e that breaks the official schema', async () => {
    const out = await rejected({ cnpj, nNF: nNF++, edit: (x) => x.replace('<natOp>', '<natOpX>').replace('</natOp>', '</natOpX>') });
    expect(out.cStat).toBe(225);
  });

  it('297 for a document changed after signing, 298 for a signature outside the profile', async () => {
    const { xml } = signedNfce(h.issuer, { cnpj, nNF: nNF++ });
    expect((await rejected(xml.replace('<vPag>150.00</vPag>', '<vPag>150.01</vPag>'))).cStat).toBe(297);
    // The XSD fixes the algorithms (a SHA-256 signature is a 225); the reference is the profile's job.
    expect((await rejected(xml.replace('xmldsig#rsa-sha1', 'xmldsig-more#rsa-sha256'))).cStat).toBe(225);
    const otherReference = xml.replace(/URI="#NFe([0-9]{43})/, 'URI="#NFe$10');
    expect((await rejected(otherReference)).cStat).toBe(298);
  });

  it('a signature written in another valid form goes through the general verifier: authorized, or 297 when tampered', async () => {
    // Expanded empty elements in SignedInfo are the same canonical form (C14N writes start/end pairs),
    // but not the compact text the fast path recognises.
    const expand = (x: string) => x.replace(/<(DigestMethod|SignatureMethod) Algorithm="([^"]+)"\/>/g, '<$1 Algorithm="$2"></$1>');
    const { xml } = signedNfce(h.issuer, { cnpj, nNF: nNF++ });
    expect(expand(xml)).not.toBe(xml);
    expect((await authorize(expand(xml))).kind).toBe('authorized');
    const tampered = expand(signedNfce(h.issuer, { cnpj, nNF: nNF++ }).xml).replace('<vPag>150.00</vPag>', '<vPag>150.01</vPag>');
    expect((await rejected(tampered)).cStat).toBe(297);
  });

  it('404 for a Signature written with a namespace prefix (docs/fiscal/signature.md)', async () => {
    const { xml } = signedNfce(h.issuer, { cnpj, nNF: nNF++ });
    const sig = xml.slice(xml.indexOf('<Signature'), xml.indexOf('</Signature>') + 12);
    const prefixed = sig
      .replace('<Signature xmlns=', '<ds:Signature xmlns:ds=')
      .replace(/<(\/?)(?!ds:)([A-Za-z]+)/g, '<$1ds:$2');
    expect((await rejected(xml.replace(sig, prefixed))).cStat).toBe(404);
  });

  it('213 when the certificate names a CNPJ of another root than the issuer', async () => {
    const cnpjIssuer = (await import('./support/authority-fixtures.js')).testIssuer('cnpj');
    expect((await rejected(signedNfce(cnpjIssuer, { cnpj, nNF: nNF++ }).xml)).cStat).toBe(213);
  });

  it('253 (MOC B23-10) for a wrong key check digit, 502 for an Id that does not match ide, 562 for a cNF that differs', async () => {
    const dv = await rejected({ cnpj, nNF: nNF++, key: (k) => k.slice(0, 43) + String((Number(k[43]) + 1) % 10) });
    expect(dv.cStat).toBe(253);
    const n = nNF++;
    const { buildAccessKey } = await import('../src/fiscal/layout/access-key.js');
    const otherNumber = (k: string) =>
      buildAccessKey({ cUF: 29, emittedYear: 2000 + Number(k.slice(2, 4)), emittedMonth: Number(k.slice(4, 6)), cnpj, mod: 65, serie: 1, nNF: n + 500, tpEmis: 1, cNF: k.slice(35, 43) });
    expect((await rejected({ cnpj, nNF: n, key: otherNumber })).cStat).toBe(502);
    const c = await rejected({ cnpj, nNF: nNF++, edit: (x) => x.replace(/<cNF>[0-9]{8}<\/cNF>/, '<cNF>13572468</cNF>') });
    expect(c.cStat).toBe(562);
  });

  it('204 for a key already authorized (with its protocol), 539 for the same number under another key', async () => {
    const n = nNF++;
    const first = await authorize(signedNfce(h.issuer, { cnpj, nNF: n }).xml);
    expect(first.kind).toBe('authorized');
    const again = await rejected({ cnpj, nNF: n });
    expect(again.cStat).toBe(204);
    expect(again.kind === 'duplicate' && again.existing.nProt).toBe(first.kind === 'authorized' && first.protocol.info.nProt);
    const other = await rejected({ cnpj, nNF: n, cNF: '24681357' });
    expect(other.cStat).toBe(539);
    expect(other.kind === 'duplicate' && other.existing.accessKey).toBe(first.kind === 'authorized' && first.protocol.info.accessKey);
  });

  it('concurrent sends: one grant per key and per number (204 and 539 for the others), 206 for a voided number', async () => {
    const n = nNF++;
    const same = signedNfce(h.issuer, { cnpj, nNF: n }).xml;
    const m = nNF++;
    const outs = await Promise.all([
      authorize(same),
      authorize(same),
      authorize(signedNfce(h.issuer, { cnpj, nNF: m }).xml),
      authorize(signedNfce(h.issuer, { cnpj, nNF: m, cNF: '24681357' }).xml),
    ]);
    const codes = (xs: readonly AuthorizationOutcome[]) => xs.map((o) => ('cStat' in o ? o.cStat : o.kind)).sort();
    expect(codes(outs.slice(0, 2))).toEqual([100, 204]);
    expect(codes(outs.slice(2))).toEqual([100, 539]);
    const keys = outs.filter((o) => o.kind === 'authorized').map((o) => (o.kind === 'authorized' ? o.protocol.info.accessKey : ''));
    for (const key of keys) expect(await h.sim.authorizationsFor(key)).toBe(1);
    // A voided range refuses its numbers (206), checked in the same claiming statement.
    const voided = await h.client.inutilize({ ...BA, signedInutNFeXml: signedInutilization(h.issuer, { cnpj, from: 900, to: 901 }) });
    expect(voided.kind).toBe('voided');
    expect((await rejected({ cnpj, nNF: 901 })).cStat).toBe(206);
  });

  it('373 and 598 for homologation notes without the test phrases', async () => {
    expect((await rejected({ cnpj, nNF: nNF++, firstItem: 'CAFE 500G' })).cStat).toBe(373);
    const withDest = (x: string) => x.replace('</emit>', '</emit><dest><CPF>11144477735</CPF><xNome>JOAO DA SILVA</xNome><indIEDest>9</indIEDest></dest>');
    expect((await rejected({ cnpj, nNF: nNF++, edit: withDest })).cStat).toBe(598);
  });

  it('564 when vProd differs from the items; payments against vNF: 865 less (YA03-10), 866 more without vTroco (YA03-20), 869 wrong vTroco (YA09-10)', async () => {
    const vProd = (x: string) => x.replace('<vProd>150.00</vProd>', '<vProd>150.10</vProd>');
    expect((await rejected({ cnpj, nNF: nNF++, edit: vProd })).cStat).toBe(564);
    const vPag = (paid: string) => (x: string) => x.replace('<vPag>150.00</vPag>', `<vPag>${paid}</vPag>`);
    expect((await rejected({ cnpj, nNF: nNF++, edit: vPag('149.99') })).cStat).toBe(865);
    expect((await rejected({ cnpj, nNF: nNF++, edit: vPag('150.01') })).cStat).toBe(866);
    const withTroco = (troco: string) => (x: string) => vPag('160.00')(x).replace('</detPag>', `</detPag><vTroco>${troco}</vTroco>`);
    expect((await rejected({ cnpj, nNF: nNF++, edit: withTroco('9.99') })).cStat).toBe(869);
    expect((await authorize(signedNfce(h.issuer, { cnpj, nNF: nNF++, edit: withTroco('10.00') }).xml)).kind).toBe('authorized');
  });

  it('offline contingency (tpEmis 9): QR v2 and v3 offline authorized, 150 when late; 399 for a recipient only the QR code names; 464 for a v3 signature over other data', async () => {
    expect((await authorize(signedNfce(h.issuer, { cnpj, nNF: nNF++, tpEmis: 9 }).xml)).kind).toBe('authorized');
    expect((await authorize(signedNfce(h.issuer, { cnpj, nNF: nNF++, tpEmis: 9, qrVersion: 3 }).xml)).kind).toBe('authorized');
    // Transmitted more than 24 h after issue: authorized out of time (150), not refused as late (704 is for online notes).
    const late = await authorize(signedNfce(h.issuer, { cnpj, nNF: nNF++, tpEmis: 9, dhEmi: new Date(Date.now() - 30 * 3600_000) }).xml);
    expect(late).toMatchObject({ kind: 'authorized', late: true, cStat: 150 });
    // NT 2025.001: recipient parameters in the QR code require a dest group in the NFC-e.
    const stranger = { kind: 'CPF' as const, id: '11144477735' };
    expect((await rejected({ cnpj, nNF: nNF++, tpEmis: 9, qrVersion: 3, qrDest: stranger })).cStat).toBe(399);
    // The v3 signature covers vNF: a QR code that states another value does not verify.
    const otherValue = (q: string) => q.replace('|150.00|', '|151.00|');
    expect((await rejected({ cnpj, nNF: nNF++, tpEmis: 9, qrVersion: 3, qr: otherValue })).cStat).toBe(464);
  });

  it('QR code: 394 missing, 395 wrong site, 397 other key, 398 bad version, 462 unknown CSC, 463 revoked, 464 wrong hash', async () => {
    expect((await rejected({ cnpj, nNF: nNF++, csc: null })).cStat).toBe(394);
    expect((await rejected({ cnpj, nNF: nNF++, qr: (q) => q.replace(/^https?:\/\/[^?]+/, 'https://example.com/qr') })).cStat).toBe(395);
    expect((await rejected({ cnpj, nNF: nNF++, qr: (q) => q.replace(/p=([0-9]{10})/, 'p=9999999999') })).cStat).toBe(397);
    expect((await rejected({ cnpj, nNF: nNF++, csc: { id: '7', token: 'X'.repeat(36) } })).cStat).toBe(462);
    // Revoked a minute before the note's emission (MOC ZX02-308 refuses only a CSC revoked before dhEmi).
    h.sim.setClock(() => new Date(Date.now() - 60_000));
    await h.sim.registerCsc(cnpj, 2, 5, 'R'.repeat(36), { revoked: true });
    h.sim.setClock(() => new Date());
    expect((await rejected({ cnpj, nNF: nNF++, csc: { id: '5', token: 'R'.repeat(36) } })).cStat).toBe(463);
    expect((await rejected({ cnpj, nNF: nNF++, csc: { id: '1', token: 'WRONG'.repeat(7) } })).cStat).toBe(464);
  });

  it('the official schema refuses QR texts without the key parameter or with an unknown version before the QR rules (225)', async () => {
    // The XSD pattern of infNFeSupl/qrCode already fixes "?p=<key>|2|" or "|3|", so 396/398 never surface online.
    expect((await rejected({ cnpj, nNF: nNF++, qr: (q) => q.replace(/\?p=.*/, '?x=1') })).cStat).toBe(225);
    expect((await rejected({ cnpj, nNF: nNF++, qr: (q) => q.replace(/\|2\|2\|/, '|7|2|') })).cStat).toBe(225);
  });

  it('704 for an online NFC-e emitted more than 5 minutes ago', async () => {
    expect((await rejected({ cnpj, nNF: nNF++, dhEmi: new Date(Date.now() - 10 * 60_000) })).cStat).toBe(704);
  });
});
