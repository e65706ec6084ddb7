import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedNfce, uniqueCnpj } from './support/authority-fixtures.js';
import { signedCancellation } from './support/authority-events.js';
import { BA, registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';
import { nfeCancellation, RS55 } from './support/authority-nfe55.js';
import { nfe55Xml } from '../src/authority-sim/nfe55-template.js';
import { signElement } from '../src/fiscal/xml/signature/sign.js';

// The database rules of MOC 7.0 section 4.2.1 the breaker table (support/breakers-qr-records.ts)
// excludes because they need the authority's own records: driven through the simulator's service.

let h: AuthorityHarness;
let cnpj: string;
let nNF = 1;

beforeAll(async () => {
  h = await startAuthorityHarness();
  cnpj = uniqueCnpj();
  await registerTestCsc(h.sim, cnpj);
});
afterAll(() => h.close());

const authorize = (xml: string) => h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1 });

describe('the authority\'s notes (group 2)', () => {
  it('2B08-30 (218): the key of a canceled note sent again', async () => {
    const n = nNF++;
    const { xml, accessKey } = signedNfce(h.issuer, { cnpj, nNF: n });
    const first = await authorize(xml);
    if (first.kind !== 'authorized') throw new Error(JSON.stringify(first));
    const cancel = await h.client.sendEvent({
      ...BA, idLote: 1, signedEventXml: signedCancellation(h.issuer, { cnpj, accessKey, nProt: first.protocol.info.nProt! }),
    });
    expect(cancel.kind === 'registered' && cancel.event.cStat).toBe(135);
    const again = await authorize(xml);
    expect('cStat' in again && again.cStat).toBe(218);
    expect('xMotivo' in again && again.xMotivo).toBe('NF-e já está cancelada na base de dados da SEFAZ');
    // Another key for the canceled number is still 539 (2B08-10 comes first in the table).
    const other = await authorize(signedNfce(h.issuer, { cnpj, nNF: n, cNF: '24681357' }).xml);
    expect('cStat' in other && other.cStat).toBe(539);
  });
});

describe('the referenced NF-e of a complementary note (group 3A)', () => {
  const send55 = (xml: string, s?: string) => h.client.authorize({ ...RS55, signedNFeXml: xml, idLote: 1, ...(s ? { headers: { 'x-sandbox-scenario': s } } : {}) });
  const note55 = (edit: (x: string) => string = (x) => x) => {
    const { xml, accessKey } = nfe55Xml({ emitCnpj: cnpj, dest: { CPF: '52998224725' }, nNF: nNF++, dhEmi: new Date() });
    return { xml: signElement(edit(xml), 'infNFe', h.issuer.signingKey).xml, accessKey };
  };
  const complementing = (key: string) => note55((x) => x.replace('<finNFe>1</finNFe>', '<finNFe>2</finNFe>').replace('</verProc>', `</verProc><NFref><refNFe>${key}</refNFe></NFref>`));
  const codeOf = (o: Awaited<ReturnType<typeof send55>>) => ('cStat' in o ? o.cStat : o.kind);

  it('3BA02-10 (267) unknown, 3BA02-20 (268) complementary, 3BA02-30 (686) canceled, 3BA02-40 (687) denied; an authorized one is completed', async () => {
    const normal = note55();
    const first = await send55(normal.xml);
    if (first.kind !== 'authorized') throw new Error(JSON.stringify(first).slice(0, 400));
    const complement = complementing(normal.accessKey);
    expect(codeOf(await send55(complement.xml))).toBe(100);
    // 3BA02-20 (268): the complement of a complement.
    expect(codeOf(await send55(complementing(complement.accessKey).xml))).toBe(268);
    const unknown = note55().accessKey;
    const refused = await send55(complementing(unknown).xml);
    expect(refused).toMatchObject({ kind: 'rejected', cStat: 267, xMotivo: 'Rejeição: NF Complementar referencia uma NF-e inexistente [nRef: 1]' });
    const denied = note55();
    expect(codeOf(await send55(denied.xml, 'deny:301'))).toBe(301);
    expect(codeOf(await send55(complementing(denied.accessKey).xml))).toBe(687);
    const canceled = note55();
    const authorized = await send55(canceled.xml);
    if (authorized.kind !== 'authorized') throw new Error('not authorized');
    const cancel = await h.client.sendEvent({ ...RS55, idLote: 1, signedEventXml: nfeCancellation(h, { cnpj, accessKey: canceled.accessKey, nProt: authorized.protocol.info.nProt! }) });
    expect(cancel.kind === 'registered' && cancel.event.cStat).toBe(135);
    expect(codeOf(await send55(complementing(canceled.accessKey).xml))).toBe(686);
    // Another purpose may reference a note the simulator never saw (a supplier's): not checked.
    const adjusting = note55((x) => x.replace('<finNFe>1</finNFe>', '<finNFe>3</finNFe>').replace('</verProc>', `</verProc><NFref><refNFe>${unknown}</refNFe></NFref>`));
    expect(codeOf(await send55(adjusting.xml))).not.toBe(267);
  });
});

describe('the CSC register (ZX02-308)', () => {
  it('463 for a CSC revoked before the emission; a contingency note issued before the revocation is authorized', async () => {
    const csc = { id: '6', token: 'S'.repeat(36) };
    const issued = signedNfce(h.issuer, { cnpj, nNF: nNF++, tpEmis: 9, csc, dhEmi: new Date(Date.now() - 3600_000) });
    // Revoked a minute ago: after the contingency note was issued, before the online one.
    h.sim.setClock(() => new Date(Date.now() - 60_000));
    await h.sim.registerCsc(cnpj, 2, 6, csc.token, { revoked: true });
    h.sim.setClock(() => new Date());
    expect(await authorize(signedNfce(h.issuer, { cnpj, nNF: nNF++, csc }).xml)).toMatchObject({ kind: 'rejected', cStat: 463 });
    const late = await authorize(issued.xml);
    expect(late.kind, JSON.stringify(late).slice(0, 300)).toBe('authorized');
  });
});

describe('the parties\' register (groups 1 and 5), as a deny:<cStat> scenario plays it', () => {
  const scenario = (s: string) => ({ 'x-sandbox-scenario': s });
  const nfe55 = (dest: { CNPJ: string } | { CPF: string }, edit: (x: string) => string = (x) => x) => {
    const { xml } = nfe55Xml({ emitCnpj: cnpj, dest, nNF: nNF++, dhEmi: new Date() });
    return signElement(edit(xml), 'infNFe', h.issuer.signingKey).xml;
  };
  const send55 = (xml: string, s: string) => h.client.authorize({ ...RS55, signedNFeXml: xml, idLote: 1, headers: scenario(s) });
  // A non-taxpayer recipient is a final consumer (MOC E16a-40, 696) and receives no CSOSN 202 (N12a-70, 600).
  const withoutIe = (x: string) =>
    x.replace('<indIEDest>1</indIEDest><IE>112006603110</IE>', '<indIEDest>9</indIEDest>').replace('<indFinal>0</indFinal>', '<indFinal>1</indFinal>')
      .replace(/<ICMSSN202>.*?<\/ICMSSN202>/, '<ICMSSN102><orig>0</orig><CSOSN>102</CSOSN></ICMSSN102>');

  it('1C17-40 (301): the issuer irregular, either model', async () => {
    expect(await authorizeWith(signedNfce(h.issuer, { cnpj, nNF: nNF++ }).xml, 'deny:301')).toMatchObject({ kind: 'denied', cStat: 301 });
    expect(await send55(nfe55({ CPF: '52998224725' }), 'deny:301')).toMatchObject({ kind: 'denied', cStat: 301 });
  });

  it('5E17-40 (302): an NF-e recipient with IE irregular; 5E17-60 (303): a recipient CNPJ without IE barred', async () => {
    expect(await send55(nfe55({ CNPJ: '06157250000116' }), 'deny:302')).toMatchObject({ kind: 'denied', cStat: 302 });
    expect(await send55(nfe55({ CNPJ: '06157250000116' }, withoutIe), 'deny:303')).toMatchObject({ kind: 'denied', cStat: 303 });
  });

  it('a recipient denial the document cannot meet denies nothing: an NFC-e, an NF-e to a CPF, 303 with an IE', async () => {
    expect((await authorizeWith(signedNfce(h.issuer, { cnpj, nNF: nNF++ }).xml, 'deny:302')).kind).toBe('authorized');
    expect((await send55(nfe55({ CPF: '52998224725' }), 'deny:302')).kind).toBe('authorized');
    expect((await send55(nfe55({ CNPJ: '06157250000116' }), 'deny:303')).kind).toBe('authorized');
  });
});

const authorizeWith = (xml: string, s: string) => h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1, headers: { 'x-sandbox-scenario': s } });
