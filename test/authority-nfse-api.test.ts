import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthoritySimulator, type AuthoritySimulator } from '../src/authority-sim/authority-simulator.js';
import { remoteSimulatorLink } from '../src/authority-sim/sim-admin-client.js';
import { nfseCode } from '../src/fiscal/nfse-codes/nfse-codes.js';
import { isValidNfseKey, nfseKeyCheckDigit, parseNfseKey } from '../src/fiscal/xml/nfse/dps-id.js';
import { getTestDb } from './support/db.js';
import { expiredSigningKey } from './support/generate-certificate.js';
import { callNfseApi, editedDps, gzB64, nfseProvider, signedCancellation, signedDps, TAKER_CPF, unGzB64, type NfseProvider } from './support/nfse-sim-calls.js';
import { NFSE_ID_ELEMENTS, xmllint, xmlsecVerify } from './support/xml-tools.js';

// The national NFS-e API of the simulator (Sefin Nacional + ADN) over real HTTPS with client
// certificates: DPS built and signed by the project's NFS-e domain, answers checked against the
// official Swagger shapes and Anexo I/II codes, documents checked by xmllint (national XSDs) and xmlsec1.

const TOKEN = 'nfse-admin-token-for-tests';
let sim: AuthoritySimulator;
let provider: NfseProvider;
let other: NfseProvider;
let nDPS = 0;
const nextNumber = () => ++nDPS;

const post = (path: string, body: unknown, scenario?: string, who = provider) => callNfseApi(sim, who, 'POST', path, body, scenario);
const get = (path: string, method = 'GET') => callNfseApi(sim, provider, method, path);
const issue = (xml: string, scenario?: string, who = provider) => post('/SefinNacional/nfse', { dpsXmlGZipB64: gzB64(xml) }, scenario, who);
const NFSE_SIGNATURE = "/*[local-name()='NFSe']/*[local-name()='Signature']";
const DPS_SIGNATURE = "//*[local-name()='DPS']/*[local-name()='Signature']";

function expectRefusal(answer: { status: number; json: { erros?: Array<{ codigo: string; descricao: string }> } }, code: string) {
  expect(answer.status).toBe(400);
  expect(answer.json.erros?.[0]).toMatchObject({ codigo: code, descricao: nfseCode(code)!.message });
}

beforeAll(async () => {
  sim = await startAuthoritySimulator({ db: await getTestDb(), latencyMs: [0, 0], adminToken: TOKEN });
  provider = nfseProvider('11222333000181');
  other = nfseProvider('06157250000116');
  await sim.registerClientCertificate(provider.credentials.cert);
  await sim.registerClientCertificate(other.credentials.cert);
}, 60_000);
afterAll(() => sim.close());

describe('POST /SefinNacional/nfse', () => {
  it('authorizes a DPS: 201, a 50-digit key with its check digit, an NFS-e that passes the XSD and xmlsec1', async () => {
    const dps = signedDps(provider, nextNumber());
    const answer = await issue(dps.xml);
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.json).sort()).toEqual(['alertas', 'chaveAcesso', 'dataHoraProcessamento', 'idDps', 'nfseXmlGZipB64', 'tipoAmbiente', 'versaoAplicativo']);
    expect(answer.json.idDps).toBe(dps.id);
    const key: string = answer.json.chaveAcesso;
    expect(isValidNfseKey(key)).toBe(true);
    expect(parseNfseKey(key)).toMatchObject({ cMun: '3304557', ambGer: '2', inscriptionType: 2, taxId: provider.cnpj });
    const nfse = unGzB64(answer.json.nfseXmlGZipB64);
    expect(nfse).toContain(`<infNFSe Id="NFS${key}">`);
    expect(nfse).toContain('<xLocEmi>Rio de Janeiro</xLocEmi>');
    expect(nfse).toContain('<xNome>EMPRESA DE TESTE LTDA</xNome>');
    // 1000.00 at 2%: ISSQN 20.00, nothing withheld.
    expect(nfse).toContain('<valores><vBC>1000.00</vBC><pAliqAplic>2.00</pAliqAplic><vISSQN>20.00</vISSQN><vTotalRet>0.00</vTotalRet><vLiq>1000.00</vLiq></valores>');
    expect(nfse).toContain(dps.xml.replace(/^<\?xml[^>]*\?>/, ''));
    expect(await xmllint(nfse, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
    expect(await xmlsecVerify(nfse, NFSE_ID_ELEMENTS, NFSE_SIGNATURE)).toBe('');
    expect(await xmlsecVerify(nfse, NFSE_ID_ELEMENTS, DPS_SIGNATURE)).toBe('');
    expect(nfse).toContain('<CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#WithComments"/>');
    expect(await sim.nfseIssuedFor(dps.id)).toBe(1);
    const fetched = await get(`/SefinNacional/nfse/${key}`);
    expect(fetched.status).toBe(200);
    expect(unGzB64(fetched.json.nfseXmlGZipB64)).toBe(nfse);
  });

  it('accepts both DPS profiles; refuse-profile refuses the one named with E0714', async () => {
    const sha1 = signedDps(provider, nextNumber(), { profile: 'rsa-sha1-c14n' });
    const sha256 = signedDps(provider, nextNumber(), { profile: 'rsa-sha256-exc-c14n' });
    expectRefusal(await issue(sha1.xml, 'refuse-profile:rsa-sha1-c14n'), 'E0714');
    expect(await sim.nfseIssuedFor(sha1.id)).toBe(0);
    expect((await issue(sha256.xml, 'refuse-profile:rsa-sha1-c14n')).status).toBe(201);
    expect((await issue(sha1.xml)).status).toBe(201);
  });

  it('refuses with the official codes: schema (E1235 with libxml2 message), gzip (E1225), XML (E1226), prefix (E1228), signature (E0717, E0714), signer (E0718)', async () => {
    const dps = signedDps(provider, nextNumber());
    const broken = await issue(dps.xml.replace('<tpEmit>1</tpEmit>', '<tpEmit>7</tpEmit>'));
    expectRefusal(broken, 'E1235');
    expect(broken.json.erros[0].complemento).toMatch(/^\/DPS\/infDPS\/tpEmit: .*tpEmit/);
    expect(broken.json.idDPS).toBe('');
    expectRefusal(await post('/SefinNacional/nfse', { dpsXmlGZipB64: 'bm90IGd6aXA=' }), 'E1225');
    expectRefusal(await issue('<DPS xmlns="http://www.sped.fazenda.gov.br/nfse"><infDPS>'), 'E1226');
    expectRefusal(await issue(dps.xml.replace(/<DPS xmlns=/, '<n:DPS xmlns:n="http://www.sped.fazenda.gov.br/nfse" xmlns=').replace('</DPS>', '</n:DPS>')), 'E1228');
    const unsigned = dps.xml.replace(/<Signature[\s\S]*<\/Signature>/, '');
    expectRefusal(await issue(unsigned), 'E0717');
    const tampered = await issue(dps.xml.replace('<vServ>1000.00</vServ>', '<vServ>1.00</vServ>'));
    expectRefusal(tampered, 'E0714');
    expect(tampered.json.idDPS).toBe(dps.id);
    // The provider's DPS signed with another company's e-CNPJ.
    const foreign = signedDps({ ...provider, signingKey: other.signingKey }, nextNumber());
    expectRefusal(await issue(foreign.xml), 'E0718');
    expect(await sim.nfseIssuedFor(foreign.id)).toBe(0);
  });

  it('content rules past the signature: Id against its fields (E0004), competence after emission (E0015), provider name sent (E0121)', async () => {
    const dps = signedDps(provider, nextNumber());
    const otherSerie = editedDps(dps.xml, provider.signingKey, (x) => x.replace(/Id="DPS(\d{22})00777/, (_m, head: string) => `Id="DPS${head}00778`));
    expectRefusal(await issue(otherSerie), 'E0004');
    const nextYear = String(Number(dps.xml.match(/<dCompet>(\d{4})/)![1]) + 1);
    expectRefusal(await issue(editedDps(dps.xml, provider.signingKey, (x) => x.replace(/<dCompet>\d{4}/, `<dCompet>${nextYear}`))), 'E0015');
    expectRefusal(await issue(editedDps(dps.xml, provider.signingKey, (x) => x.replace(/(<prest><CNPJ>\d{14}<\/CNPJ>(?:<IM>\d+<\/IM>)?)/, '$1<xNome>EMPRESA</xNome>'))), 'E0121');
    expect(await sim.nfseIssuedFor(dps.id)).toBe(0);
  });

  it('one NFS-e per DPS: the same DPS again is E0014 and the count stays 1 (in process and through the admin API)', async () => {
    const dps = signedDps(provider, nextNumber());
    expect((await issue(dps.xml)).status).toBe(201);
    expectRefusal(await issue(dps.xml), 'E0014');
    expect(await sim.nfseIssuedFor(dps.id)).toBe(1);
    const remote = remoteSimulatorLink({ url: sim.url, caPem: sim.caPem, token: TOKEN });
    expect(await remote.nfseIssuedFor(dps.id)).toBe(1);
    expect(await remote.nfseIssuedFor(signedDps(provider, nextNumber()).id)).toBe(0);
    const stats = await remote.stats();
    expect(stats.nfseAuthorizations).toBeGreaterThanOrEqual(1);
    expect(stats.nfseRejections).toBeGreaterThanOrEqual(1);
  });

  it('the same DPS sent five times at once: one NFS-e, four E0014', async () => {
    const dps = signedDps(provider, nextNumber());
    const answers = await Promise.all(Array.from({ length: 5 }, () => issue(dps.xml)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) expect(a.json.erros[0].codigo).toBe('E0014');
    expect(await sim.nfseIssuedFor(dps.id)).toBe(1);
  });

  it('reject:E0xxx answers that official code and message, without issuing', async () => {
    const dps = signedDps(provider, nextNumber());
    expectRefusal(await issue(dps.xml, 'reject:E0015'), 'E0015');
    expect(await sim.nfseIssuedFor(dps.id)).toBe(0);
  });

  it('lost-response: the NFS-e is generated, the answer never arrives; GET /dps/{id} finds the key, HEAD answers 200', async () => {
    const dps = signedDps(provider, nextNumber());
    await expect(issue(dps.xml, 'lost-response')).rejects.toThrow();
    expect(await sim.nfseIssuedFor(dps.id)).toBe(1);
    const found = await get(`/SefinNacional/dps/${dps.id}`);
    expect(found.status).toBe(200);
    expect(Object.keys(found.json).sort()).toEqual(['chaveAcesso', 'dataHoraProcessamento', 'idDps', 'tipoAmbiente', 'versaoAplicativo']);
    expect(isValidNfseKey(found.json.chaveAcesso)).toBe(true);
    expect((await get(`/SefinNacional/dps/${dps.id}`, 'HEAD')).status).toBe(200);
    const unknown = signedDps(provider, nextNumber()).id;
    expect((await get(`/SefinNacional/dps/${unknown}`)).status).toBe(404);
    expect((await get(`/SefinNacional/dps/${unknown}`, 'HEAD')).status).toBe(404);
    // Manual 1.4: the key only to an actor of the note; HEAD to any valid certificate.
    const stranger = (method: string, path: string) => callNfseApi(sim, other, method, path);
    expect((await stranger('GET', `/SefinNacional/dps/${dps.id}`)).status).toBe(403);
    expect((await stranger('HEAD', `/SefinNacional/dps/${dps.id}`)).status).toBe(200);
    expect((await stranger('GET', `/SefinNacional/nfse/${found.json.chaveAcesso}`)).status).toBe(403);
    expect((await get('/SefinNacional/nfse/123')).status).toBe(400);
  });

  it('bounds the decompressed size (E1225) and plays http-500 without issuing', async () => {
    const bomb = gzipSync(Buffer.alloc(3 * 1024 * 1024, 0x20)).toString('base64');
    const refused = await post('/SefinNacional/nfse', { dpsXmlGZipB64: bomb });
    expectRefusal(refused, 'E1225');
    expect(refused.json.erros[0].complemento).toMatch(/passes 2097152 bytes/);
    const dps = signedDps(provider, nextNumber());
    expect((await issue(dps.xml, 'http-500')).status).toBe(500);
    expect(await sim.nfseIssuedFor(dps.id)).toBe(0);
  });

  it('throttle: 429 with Retry-After, nothing processed (header or queued for the NFS-e API)', async () => {
    const dps = signedDps(provider, nextNumber());
    const throttled = await issue(dps.xml, 'throttle:7');
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBe('7');
    sim.setScenario('throttle', { service: 'nfse' });
    expect((await issue(dps.xml)).headers['retry-after']).toBe('2');
    expect(await sim.nfseIssuedFor(dps.id)).toBe(0);
    expect((await issue(dps.xml)).status).toBe(201);
  });
});

describe('events, substitution and ADN distribution', () => {
  it('101101 cancels: 201 with an evento that passes its XSD and xmlsec1; a second cancellation is E0840', async () => {
    const issued = await issue(signedDps(provider, nextNumber()).xml);
    const key: string = issued.json.chaveAcesso;
    const eventos = `/SefinNacional/nfse/${key}/eventos`;
    const before = sim.stats().nfseEvents;
    const answer = await post(eventos, { pedidoRegistroEventoXmlGZipB64: gzB64(signedCancellation(provider, key)) });
    expect(answer.status).toBe(201);
    expect(sim.stats().nfseEvents).toBe(before + 1);
    const evento = unGzB64(answer.json.eventoXmlGZipB64);
    expect(evento).toContain(`<infEvento Id="EVT${key}101101001">`);
    expect(await xmllint(evento, 'NFSe_v1.01', 'evento_v1.01.xsd')).toBe('');
    expect(await xmlsecVerify(evento, NFSE_ID_ELEMENTS, "/*[local-name()='evento']/*[local-name()='Signature']")).toBe('');
    expect(await xmlsecVerify(evento, NFSE_ID_ELEMENTS, "//*[local-name()='pedRegEvento']/*[local-name()='Signature']")).toBe('');
    const again = await post(eventos, { pedidoRegistroEventoXmlGZipB64: gzB64(signedCancellation(provider, key)) });
    expect(again.status).toBe(400);
    expect(again.json.erro).toMatchObject({ codigo: 'E0840', descricao: nfseCode('E0840')!.message });
    const stored = await get(`${eventos}/101101/1`);
    expect(stored.status).toBe(200);
    expect(unGzB64(stored.json.eventoXmlGZipB64)).toBe(evento);
    expect((await get(`${eventos}/101101/2`)).status).toBe(404);
  });

  it('refuses an unsigned request (E1989), another author (E0813), an unknown note (E1831), another environment (E0831), an expired certificate (E1983) and another kind of certificate (E1991)', async () => {
    const key: string = (await issue(signedDps(provider, nextNumber()).xml)).json.chaveAcesso;
    const eventos = `/SefinNacional/nfse/${key}/eventos`;
    const unsigned = signedCancellation(provider, key).replace(/<Signature[\s\S]*<\/Signature>/, '');
    expect((await post(eventos, { pedidoRegistroEventoXmlGZipB64: gzB64(unsigned) })).json.erro.codigo).toBe('E1989');
    const byOther = signedCancellation(other, key);
    expect((await post(eventos, { pedidoRegistroEventoXmlGZipB64: gzB64(byOther) }, undefined, other)).json.erro.codigo).toBe('E0813');
    const missing = key.slice(0, 40) + '000000000';
    const fixed = missing + nfseKeyCheckDigit(missing);
    const unknown = await post(`/SefinNacional/nfse/${fixed}/eventos`, { pedidoRegistroEventoXmlGZipB64: gzB64(signedCancellation(provider, fixed)) });
    expect(unknown.json.erro.codigo).toBe('E1831');
    expect((await get(`/SefinNacional/nfse/${fixed}`)).status).toBe(404);
    // Anexo II E0831: the note was generated in tpAmb 2; a cancellation for production is sent to the wrong environment.
    const production = await post(eventos, { pedidoRegistroEventoXmlGZipB64: gzB64(signedCancellation(provider, key, provider.cnpj, 1)) });
    expect(production.json.erro).toMatchObject({ codigo: 'E0831', descricao: nfseCode('E0831')!.message });
    // Anexo II E1983: signed with a certificate out of its validity.
    const expiredCert = await post(eventos, { pedidoRegistroEventoXmlGZipB64: gzB64(signedCancellation(provider, key, provider.cnpj, 2, expiredSigningKey())) });
    expect(expiredCert.json.erro).toMatchObject({ codigo: 'E1983', descricao: nfseCode('E1983')!.message });
    // Anexo II E1991: an e-CPF signing for a CNPJ author.
    const byCpfCertificate = signedCancellation(provider, key, provider.cnpj, 2, nfseProvider(TAKER_CPF).signingKey);
    expect((await post(eventos, { pedidoRegistroEventoXmlGZipB64: gzB64(byCpfCertificate) })).json.erro.codigo).toBe('E1991');
    expect((await get(`${eventos}/101101/1`)).status).toBe(404);
  });

  it('substitution: the substitute is issued, the original gets 105102 and can no longer be canceled', async () => {
    const original: string = (await issue(signedDps(provider, nextNumber()).xml)).json.chaveAcesso;
    const subst = { chSubstda: original, cMotivo: '99' as const, xMotivo: 'Valor do servico informado errado' };
    const substitute = await issue(signedDps(provider, nextNumber(), { subst }).xml);
    expect(substitute.status).toBe(201);
    expect(await xmllint(unGzB64(substitute.json.nfseXmlGZipB64), 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
    const event = await get(`/SefinNacional/nfse/${original}/eventos/105102/1`);
    expect(event.status).toBe(200);
    const evento = unGzB64(event.json.eventoXmlGZipB64);
    expect(evento).toContain(`<chSubstituta>${substitute.json.chaveAcesso}</chSubstituta>`);
    expect(await xmllint(evento, 'NFSe_v1.01', 'evento_v1.01.xsd')).toBe('');
    expect(await xmlsecVerify(evento, NFSE_ID_ELEMENTS)).toBe('');
    const cancel = await post(`/SefinNacional/nfse/${original}/eventos`, { pedidoRegistroEventoXmlGZipB64: gzB64(signedCancellation(provider, original)) });
    expect(cancel.json.erro.codigo).toBe('E0840');
    // A second substitution of the same note: already canceled by substitution (E0046).
    expectRefusal(await issue(signedDps(provider, nextNumber(), { subst }).xml), 'E0046');
    // Another provider's note cannot be replaced (E0042: the key's inscription differs from the DPS Id's).
    const foreign: string = (await issue(signedDps(other, nextNumber()).xml, undefined, other)).json.chaveAcesso;
    expectRefusal(await issue(signedDps(provider, nextNumber(), { subst: { ...subst, chSubstda: foreign } }).xml), 'E0042');
  });

  it('substitution keeps what Anexo I E0060 (provider outside the Simples Nacional) and E0061 (MEI, ME/EPP) name', async () => {
    const original: string = (await issue(signedDps(provider, nextNumber()).xml)).json.chaveAcesso;
    const subst = { chSubstda: original, cMotivo: '99' as const, xMotivo: 'Codigo do servico informado errado' };
    const substitute = signedDps(provider, nextNumber(), { subst }).xml;
    // opSimpNac 1: another LC 116 sub-item (01.01 -> 14.01) is E0060.
    expectRefusal(await issue(editedDps(substitute, provider.signingKey, (x) => x.replace('<cTribNac>010101</cTribNac>', '<cTribNac>140101</cTribNac>'))), 'E0060');
    // As a MEI (opSimpNac 2, no pAliq: E0600) the service value is kept: E0061.
    const asMei = (x: string) => x.replace('<opSimpNac>1</opSimpNac>', '<opSimpNac>2</opSimpNac>').replace(/<pAliq>[^<]*<\/pAliq>/, '');
    expectRefusal(await issue(editedDps(substitute, provider.signingKey, (x) => asMei(x).replace(/<vServ>[^<]*<\/vServ>/, '<vServ>1400.00</vServ>'))), 'E0061');
    // The same provider's substitute keeping them is issued.
    expect((await issue(substitute)).status).toBe(201);
  });

  it('ADN: GET /contribuintes/DFe/{NSU} hands the provider and the taker their NFS-e and events, NSU ordered', async () => {
    const key: string = (await issue(signedDps(provider, nextNumber()).xml)).json.chaveAcesso;
    await post(`/SefinNacional/nfse/${key}/eventos`, { pedidoRegistroEventoXmlGZipB64: gzB64(signedCancellation(provider, key)) });
    // Lot by lot from NSU 1: the worker's earlier files may have given this taker more than one lot holds.
    const docs: Array<{ NSU: number; ChaveAcesso: string; TipoDocumento: string; TipoEvento: string | null; ArquivoXml: string }> = [];
    for (let nsu = 1; ; ) {
      const lot = await get(`/contribuintes/DFe/${nsu}?cnpjConsulta=${TAKER_CPF}&lote=true`);
      // Past the last document: 404 NENHUM_DOCUMENTO_LOCALIZADO (the official API's answer).
      if (docs.length > 0 && lot.status === 404 && lot.json.StatusProcessamento === 'NENHUM_DOCUMENTO_LOCALIZADO') break;
      expect(lot.status).toBe(200);
      expect(lot.json).toMatchObject({ StatusProcessamento: 'DOCUMENTOS_LOCALIZADOS', TipoAmbiente: 'HOMOLOGACAO', Erros: [] });
      docs.push(...lot.json.LoteDFe);
      nsu = docs[docs.length - 1]!.NSU + 1;
    }
    expect(docs.map((d) => d.NSU)).toEqual([...docs.map((d) => d.NSU)].sort((a, b) => a - b));
    const mine = docs.filter((d) => d.ChaveAcesso === key);
    expect(mine.map((d) => [d.TipoDocumento, d.TipoEvento])).toEqual([['NFSE', null], ['EVENTO', 'CANCELAMENTO']]);
    expect(unGzB64(mine[0]!.ArquivoXml)).toContain(`<infNFSe Id="NFS${key}">`);
    // Without cnpjConsulta the certificate's CNPJ decides; a CNPJ with nothing gets none.
    const own = await get(`/contribuintes/DFe/${mine[0]!.NSU}?lote=false`);
    expect(own.json.LoteDFe.map((d: { ChaveAcesso: string }) => d.ChaveAcesso)).toEqual([key]);
    expect((await get('/contribuintes/DFe/1?cnpjConsulta=99888777000166')).json.StatusProcessamento).toBe('NENHUM_DOCUMENTO_LOCALIZADO');
  });

  it('ADN: GET /contribuintes/NFSe/{ChaveAcesso}/Eventos hands a party the events of that key (200), else 404 NENHUM_DOCUMENTO_LOCALIZADO', async () => {
    const key: string = (await issue(signedDps(provider, nextNumber()).xml)).json.chaveAcesso;
    // No event yet: the Swagger's 404 with the same LoteDistribuicaoNSUResponse.
    const none = await get(`/contribuintes/NFSe/${key}/Eventos`);
    expect(none.status).toBe(404);
    expect(none.json).toMatchObject({ StatusProcessamento: 'NENHUM_DOCUMENTO_LOCALIZADO', LoteDFe: [], Erros: [], TipoAmbiente: 'HOMOLOGACAO' });
    await post(`/SefinNacional/nfse/${key}/eventos`, { pedidoRegistroEventoXmlGZipB64: gzB64(signedCancellation(provider, key)) });
    const found = await get(`/contribuintes/NFSe/${key}/Eventos`);
    expect(found.status).toBe(200);
    expect(Object.keys(found.json).sort()).toEqual(['Alertas', 'DataHoraProcessamento', 'Erros', 'LoteDFe', 'StatusProcessamento', 'TipoAmbiente', 'VersaoAplicativo']);
    expect(found.json.StatusProcessamento).toBe('DOCUMENTOS_LOCALIZADOS');
    expect(found.json.LoteDFe.map((d: { ChaveAcesso: string; TipoDocumento: string; TipoEvento: string }) => [d.ChaveAcesso, d.TipoDocumento, d.TipoEvento])).toEqual([[key, 'EVENTO', 'CANCELAMENTO']]);
    const evento = unGzB64(found.json.LoteDFe[0].ArquivoXml);
    expect(evento).toContain('<e101101>');
    expect(await xmllint(evento, 'NFSe_v1.01', 'evento_v1.01.xsd')).toBe('');
    // Someone who is no party of the note reads nothing.
    expect((await callNfseApi(sim, other, 'GET', `/contribuintes/NFSe/${key}/Eventos`)).status).toBe(404);
  });
});

describe('the taxpayer register (POST /sim/admin/taxpayers): the NFS-e emit as the register holds it', () => {
  it('refuses a record without a name or with a bad address; a registered provider gets its name and address on the NFS-e', async () => {
    const link = remoteSimulatorLink({ url: sim.url, caPem: sim.caPem, token: TOKEN });
    const address = { street: 'Rua da Assembleia', number: '10', complement: 'Sala 1201', district: 'Centro', municipalityCode: '3304557', postalCode: '20011000' };
    await expect(link.registerTaxpayer(other.cnpj, { name: '' })).rejects.toThrow(/name \(1-300 characters\) is required/);
    await expect(link.registerTaxpayer(other.cnpj, { name: 'X', address: { ...address, postalCode: '20011-00' } })).rejects.toThrow(/postal_code \(8 digits\)/);
    await expect(link.registerTaxpayer(other.cnpj, { name: 'X', address: { ...address, municipalityCode: '9999999' } })).rejects.toThrow(/municipality_code/);
    await link.registerTaxpayer(other.cnpj, { name: 'Consultoria Exemplo Ltda', tradeName: 'Exemplo', address });
    const dps = signedDps(other, nextNumber());
    const answer = await issue(dps.xml, undefined, other);
    expect(answer.status).toBe(201);
    const nfse = unGzB64(answer.json.nfseXmlGZipB64);
    expect(nfse).toContain(
      '<xNome>Consultoria Exemplo Ltda</xNome><xFant>Exemplo</xFant><enderNac><xLgr>Rua da Assembleia</xLgr><nro>10</nro><xCpl>Sala 1201</xCpl><xBairro>Centro</xBairro><cMun>3304557</cMun><UF>RJ</UF><CEP>20011000</CEP></enderNac>',
    );
    expect(await xmllint(nfse, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
  });
});
