import { describe, expect, it } from 'vitest';
import { parseAuthorizationAnswer, parseConsultAnswer } from './response-parsers.js';

// The authority's answers as a SEFAZ writes them (MOC 4.00 retEnviNFe / retConsSitNFe, protNFe signed by the
// authority): the lot's own status outside protNFe, the note's inside infProt.
const timing = { sentAt: 0, answeredAt: 0 } as unknown as Parameters<typeof parseAuthorizationAnswer>[1];
const KEY = '35261112345678000195650010000000421000000425';
const signature =
  '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>' +
  '<SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/><Reference URI="#ID135260000000042"><DigestValue>c3RhdGU=</DigestValue></Reference></SignedInfo>' +
  '<SignatureValue>bm90IGEgcmVhbCBzaWduYXR1cmU=</SignatureValue><KeyInfo><X509Data><X509Certificate>TUlJQg==</X509Certificate></X509Data></KeyInfo></Signature>';
const protNFe = (cStat: number, xMotivo: string) =>
  `<protNFe versao="4.00"><infProt Id="ID135260000000042"><tpAmb>2</tpAmb><verAplic>SP_NFCE_PL_009_V400</verAplic><chNFe>${KEY}</chNFe>` +
  `<dhRecbto>2026-11-29T10:05:09-03:00</dhRecbto><nProt>135260000000042</nProt><digVal>q1W2e3R4t5Y6u7I8o9P0a1S2d3F=</digVal>` +
  `<cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo></infProt>${signature}</protNFe>`;
const retEnviNFe = (cStat: number, xMotivo: string, inner = '') =>
  `<retEnviNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>2</tpAmb><verAplic>SP_NFCE_PL_009_V400</verAplic>` +
  `<cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo><cUF>35</cUF><dhRecbto>2026-11-29T10:05:09-03:00</dhRecbto>${inner}</retEnviNFe>`;

describe('parseAuthorizationAnswer', () => {
  it("reads the lot's status outside protNFe and the note's inside infProt, keeping protNFe byte for byte", () => {
    const prot = protNFe(100, 'Autorizado o uso da NF-e');
    const r = parseAuthorizationAnswer(retEnviNFe(104, 'Lote processado', prot), timing);
    expect(r.kind).toBe('authorized');
    if (r.kind !== 'authorized') return;
    expect(r.protocol.protNFeXml).toBe(prot);
    expect(r.protocol.info).toMatchObject({ accessKey: KEY, nProt: '135260000000042', cStat: 100, digVal: 'q1W2e3R4t5Y6u7I8o9P0a1S2d3F=', dhRecbto: '2026-11-29T10:05:09-03:00' });
    expect(r.cStat).toBe(100);
  });

  it('tells a rejected note inside a processed lot, and a lot-level rejection without protNFe', () => {
    const inside = parseAuthorizationAnswer(retEnviNFe(104, 'Lote processado', protNFe(225, 'Rejeição: Falha no Schema XML da NFe')), timing);
    expect(inside).toMatchObject({ kind: 'rejected', cStat: 225, xMotivo: 'Rejeição: Falha no Schema XML da NFe' });
    const lot = parseAuthorizationAnswer(retEnviNFe(215, 'Rejeição: Falha no schema XML'), timing);
    expect(lot).toMatchObject({ kind: 'rejected', cStat: 215, protocol: null });
  });

  it('a processed lot whose protNFe has no readable infProt, or an answer that is not XML, is in doubt', () => {
    const broken = parseAuthorizationAnswer(retEnviNFe(104, 'Lote processado', `<protNFe versao="4.00">${signature}</protNFe>`), timing);
    expect(broken).toMatchObject({ kind: 'unknown', inDoubt: true });
    expect(parseAuthorizationAnswer('<retEnviNFe><cStat>104</cStat><protNFe><infProt><cStat>100</cStat></infProt></protNFe', timing)).toMatchObject({ kind: 'unknown', inDoubt: true });
  });

  it('the lot status is the one outside protNFe, even when protNFe comes first', () => {
    const prot = protNFe(100, 'Autorizado o uso da NF-e');
    const payload = `<retEnviNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">${prot}<tpAmb>2</tpAmb><cStat>104</cStat><xMotivo>Lote processado</xMotivo></retEnviNFe>`;
    expect(parseAuthorizationAnswer(payload, timing)).toMatchObject({ kind: 'authorized', cStat: 100 });
  });
});

describe('parseConsultAnswer', () => {
  it('reads the protocol of an authorized note from infProt', () => {
    const prot = protNFe(100, 'Autorizado o uso da NF-e');
    const payload = `<retConsSitNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>2</tpAmb><verAplic>SP</verAplic><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo><cUF>35</cUF><dhRecbto>2026-11-29T10:06:00-03:00</dhRecbto><chNFe>${KEY}</chNFe>${prot}</retConsSitNFe>`;
    const r = parseConsultAnswer(payload, timing);
    expect(r.kind).toBe('authorized');
    if (r.kind === 'authorized') expect(r.protocol.protNFeXml).toBe(prot);
  });
});
