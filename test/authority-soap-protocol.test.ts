import https from 'node:https';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandaloneSimulator, type StandaloneSimulator } from '../src/authority-sim/cli.js';
import { generateSimulatorIdentity } from '../src/authority-sim/server-certificate.js';
import { createSefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import { SOAP11_NAMESPACE, SOAP12_NAMESPACE } from '../src/fiscal/sefaz/soap-envelope.js';
import { BA } from './support/authority-harness.js';
import { readFixture, testIssuer } from './support/authority-fixtures.js';
import { getTestDb } from './support/db.js';

// Raw probes of the simulator's SOAP bindings (the official WSDLs in assets/fiscal/wsdl/nfe_v4 bind
// every operation in SOAP 1.2 and SOAP 1.1 at one address), and of our client's reading of answers
// as other servers write them. Answers are checked with a namespace-aware DOM (xmldom), not with
// the code under test.

const WSDL = 'http://www.portalfiscal.inf.br/nfe/wsdl/';
const NFE = 'http://www.portalfiscal.inf.br/nfe';
const STATUS_NS = `${WSDL}NFeStatusServico4`;
const STATUS_ACTION = `${STATUS_NS}/nfeStatusServicoNF`;
const consStatServ = `<consStatServ versao="4.00" xmlns="${NFE}"><tpAmb>2</tpAmb><cUF>29</cUF><xServ>STATUS</xServ></consStatServ>`;
const issuer = testIssuer('plain');
let standalone: StandaloneSimulator;

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

function post(path: string, headers: Record<string, string>, body: string, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${standalone.sim.url}${path}`,
      { method, headers, ca: [standalone.sim.caPem], ...issuer.credentials, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type']), body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const soap12 = (action?: string) => ({ 'content-type': `application/soap+xml; charset=utf-8${action ? `; action="${action}"` : ''}` });
const soap11 = (action: string) => ({ 'content-type': 'text/xml; charset=utf-8', soapaction: `"${action}"` });

/** The answer read by a namespace-aware parser: envelope version, the result wrapper's namespace, cStat. */
function read(answer: Answer) {
  const doc = new DOMParser().parseFromString(answer.body, 'text/xml');
  const root = doc.documentElement!;
  const result = root.getElementsByTagNameNS('*', 'nfeResultMsg')[0];
  const fault = root.getElementsByTagNameNS(root.namespaceURI!, 'Fault')[0];
  const text = (ns: string, name: string) => root.getElementsByTagNameNS(ns, name)[0]?.textContent ?? null;
  return {
    envelope: `${root.namespaceURI ?? ''} ${root.localName ?? ''}`,
    resultNamespace: result ? result.namespaceURI : undefined,
    cStat: text(NFE, 'cStat'),
    fault: fault
      ? root.namespaceURI === SOAP11_NAMESPACE
        ? { code: text('', 'faultcode') ?? fault.getElementsByTagName('faultcode')[0]?.textContent, reason: fault.getElementsByTagName('faultstring')[0]?.textContent }
        : { code: text(SOAP12_NAMESPACE, 'Value'), reason: text(SOAP12_NAMESPACE, 'Text') }
      : null,
  };
}

beforeAll(async () => {
  standalone = await startStandaloneSimulator(
    { SIM_DATA_DIR: mkdtempSync(join(tmpdir(), 'authority-sim-soap-')), SIM_CLIENT_AUTH: 'any-certificate', AUTHORITY_SIM_LATENCY_MS: '0' },
    await getTestDb(),
  );
});
afterAll(async () => standalone?.close());

describe('simulator: SOAP 1.2 envelopes read namespace-aware', () => {
  it.each([
    ['a prefixed nfeDadosMsg, prefix declared on the Envelope', `<soap:Envelope xmlns:soap="${SOAP12_NAMESPACE}" xmlns:nfe="${STATUS_NS}"><soap:Body><nfe:nfeDadosMsg>${consStatServ}</nfe:nfeDadosMsg></soap:Body></soap:Envelope>`],
    ['another prefix declared on the Body', `<env:Envelope xmlns:env="${SOAP12_NAMESPACE}"><env:Body xmlns:w="${STATUS_NS}"><w:nfeDadosMsg>${consStatServ}</w:nfeDadosMsg></env:Body></env:Envelope>`],
    ['a default namespace declared on the Envelope', `<S:Envelope xmlns:S="${SOAP12_NAMESPACE}" xmlns="${STATUS_NS}"><S:Body><nfeDadosMsg>${consStatServ}</nfeDadosMsg></S:Body></S:Envelope>`],
    [
      'a payload whose own prefix is declared on the Envelope',
      `<soap:Envelope xmlns:soap="${SOAP12_NAMESPACE}" xmlns:n="${NFE}" xmlns:w="${STATUS_NS}"><soap:Body><w:nfeDadosMsg><n:consStatServ versao="4.00"><n:tpAmb>2</n:tpAmb><n:cUF>29</n:cUF><n:xServ>STATUS</n:xServ></n:consStatServ></w:nfeDadosMsg></soap:Body></soap:Envelope>`,
    ],
  ])('answers %s: 107 inside nfeResultMsg in the service namespace', async (_name, envelope) => {
    const answer = await post('/NFeStatusServico4', soap12(), envelope);
    expect(answer).toMatchObject({ status: 200, contentType: 'application/soap+xml; charset=utf-8' });
    expect(read(answer)).toMatchObject({ envelope: `${SOAP12_NAMESPACE} Envelope`, resultNamespace: STATUS_NS, cStat: '107' });
  });

  it('answers a message recognised only through the action parameter in the service namespace, not xmlns=""', async () => {
    const unqualified = `<soap:Envelope xmlns:soap="${SOAP12_NAMESPACE}"><soap:Body><nfeDadosMsg>${consStatServ}</nfeDadosMsg></soap:Body></soap:Envelope>`;
    const answer = await post('/NFeStatusServico4', soap12(STATUS_ACTION), unqualified);
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain('xmlns=""');
    expect(read(answer)).toMatchObject({ resultNamespace: STATUS_NS, cStat: '107' });
    // The same through SOAP 1.1's SOAPAction, even one that names the service without the operation.
    const unqualified11 = unqualified.replace(SOAP12_NAMESPACE, SOAP11_NAMESPACE);
    for (const action of [STATUS_ACTION, STATUS_NS]) {
      expect(read(await post('/NFeStatusServico4', soap11(action), unqualified11)), action).toMatchObject({ resultNamespace: STATUS_NS, cStat: '107' });
    }
  });

  it('routes by the path as the authorities lay it out (SVRS .asmx, Axis /services/), case-insensitively', async () => {
    const envelope = `<soap:Envelope xmlns:soap="${SOAP12_NAMESPACE}"><soap:Body><nfeDadosMsg xmlns="${STATUS_NS}">${consStatServ}</nfeDadosMsg></soap:Body></soap:Envelope>`;
    for (const path of ['/ws/NfeStatusServico/NfeStatusServico4.asmx', '/nfe/services/NFeStatusServico4', '/nfestatusservico4']) {
      expect(read(await post(path, soap12(STATUS_ACTION), envelope)), path).toMatchObject({ resultNamespace: STATUS_NS, cStat: '107' });
    }
  });
});

describe('simulator: SOAP 1.1 binding', () => {
  const envelope11 = `<soap:Envelope xmlns:soap="${SOAP11_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body><nfeDadosMsg xmlns="${STATUS_NS}">${consStatServ}</nfeDadosMsg></soap:Body></soap:Envelope>`;

  it('answers SOAP 1.1 (text/xml + SOAPAction) in SOAP 1.1', async () => {
    const answer = await post('/ws/NfeStatusServico/NfeStatusServico4.asmx', soap11(STATUS_ACTION), envelope11);
    expect(answer).toMatchObject({ status: 200, contentType: 'text/xml; charset=utf-8' });
    expect(read(answer)).toMatchObject({ envelope: `${SOAP11_NAMESPACE} Envelope`, resultNamespace: STATUS_NS, cStat: '107', fault: null });
  });

  it('refuses a message at the wrong endpoint with a SOAP 1.1 fault (500, faultcode Client, faultstring)', async () => {
    const answer = await post('/ws/NfeAutorizacao/NFeAutorizacao4.asmx', soap11(STATUS_ACTION), envelope11);
    expect(answer).toMatchObject({ status: 500, contentType: 'text/xml; charset=utf-8' });
    const { envelope, fault, cStat } = read(answer);
    expect(envelope).toBe(`${SOAP11_NAMESPACE} Envelope`);
    expect(fault).toMatchObject({ code: 'soap:Client', reason: expect.stringMatching(/NFeStatusServico4.*this endpoint serves NFeAutorizacao4/) });
    expect(cStat).toBeNull();
  });

  it('a Java endpoint (not .asmx) answers a SOAP 1.2 envelope sent as text/xml with a VersionMismatch fault', async () => {
    // Axis2/Axiom: the content type's version must be the envelope's (docs/fiscal/soap-transport.md).
    const envelope12 = envelope11.replace(SOAP11_NAMESPACE, SOAP12_NAMESPACE);
    for (const path of ['/NFeStatusServico4', '/nfe2/services/NFeStatusServico4']) {
      const answer = await post(path, soap11(STATUS_ACTION), envelope12);
      expect(answer.status, path).toBe(500);
      expect(read(answer).fault, path).toMatchObject({ code: 'soap:VersionMismatch' });
    }
  });
});

describe('simulator: the ASP.NET (.asmx) endpoints read the version from the envelope', () => {
  // SP, SVRS, SVAN and the Ambiente Nacional: System.Web.Services reads the envelope's namespace and
  // checks the content type only for SOAP 1.1 (docs/fiscal/soap-transport.md). nfewizard-io posts so.
  const envelope12 = `<soap12:Envelope xmlns:soap12="${SOAP12_NAMESPACE}"><soap12:Body><nfeDadosMsg xmlns="${STATUS_NS}">${consStatServ}</nfeDadosMsg></soap12:Body></soap12:Envelope>`;

  it.each([
    ['SP', '/ws/nfestatusservico4.asmx'],
    ['SVRS', '/ws/NfeStatusServico/NfeStatusServico4.asmx'],
    ['Ambiente Nacional', '/NFeStatusServico4/NFeStatusServico4.asmx'],
  ])('%s: a SOAP 1.2 envelope sent as text/xml with SOAPAction is answered 107 in SOAP 1.2', async (_name, path) => {
    const answer = await post(path, soap11(STATUS_ACTION), envelope12);
    expect(answer).toMatchObject({ status: 200, contentType: 'application/soap+xml; charset=utf-8' });
    expect(read(answer)).toMatchObject({ envelope: `${SOAP12_NAMESPACE} Envelope`, resultNamespace: STATUS_NS, cStat: '107', fault: null });
  });

  it('a SOAP 1.1 envelope sent as application/soap+xml gets a SOAP 1.1 Client fault (500), not an answer', async () => {
    const envelope11 = envelope12.replace(SOAP12_NAMESPACE, SOAP11_NAMESPACE);
    const answer = await post('/ws/NfeStatusServico/NfeStatusServico4.asmx', soap12(STATUS_ACTION), envelope11);
    expect(answer).toMatchObject({ status: 500, contentType: 'text/xml; charset=utf-8' });
    expect(read(answer)).toMatchObject({ envelope: `${SOAP11_NAMESPACE} Envelope`, cStat: null, fault: { code: 'soap:Client' } });
  });
});

describe('simulator: a message that does not belong to the endpoint', () => {
  const statusEnvelope = `<soap:Envelope xmlns:soap="${SOAP12_NAMESPACE}"><soap:Body><nfeDadosMsg xmlns="${STATUS_NS}">${consStatServ}</nfeDadosMsg></soap:Body></soap:Envelope>`;

  it('a status message at the authorization endpoint gets a Sender fault (500), not 107', async () => {
    const before = standalone.sim.stats().authorizations + standalone.sim.stats().rejections;
    const answer = await post('/ws/NfeAutorizacao/NFeAutorizacao4.asmx', soap12(STATUS_ACTION), statusEnvelope);
    expect(answer).toMatchObject({ status: 500, contentType: 'application/soap+xml; charset=utf-8' });
    expect(read(answer)).toMatchObject({ cStat: null, fault: { code: 'soap:Sender', reason: expect.stringMatching(/NFeStatusServico4/) } });
    expect(standalone.sim.stats().authorizations + standalone.sim.stats().rejections).toBe(before);
  });

  it('the right namespace with an action of another service is refused too', async () => {
    const answer = await post('/NFeStatusServico4', soap12(`${WSDL}NFeAutorizacao4/nfeAutorizacaoLote`), statusEnvelope);
    expect(read(answer).fault).toMatchObject({ code: 'soap:Sender', reason: expect.stringMatching(/action .*NFeAutorizacao4/) });
  });

  it('a wrapper in no service namespace is refused', async () => {
    const answer = await post('/NFeStatusServico4', soap12(), statusEnvelope.replace(STATUS_NS, 'urn:not-a-service'));
    expect(answer.status).toBe(500);
    expect(read(answer).fault?.reason).toMatch(/urn:not-a-service/);
  });

  it('serves the official WSDL at <endpoint>?wsdl with both bindings addressed to the endpoint', async () => {
    const path = '/ws/NfeStatusServico/NfeStatusServico4.asmx';
    const answer = await post(`${path}?wsdl`, {}, '', 'GET');
    expect(answer).toMatchObject({ status: 200, contentType: 'text/xml; charset=utf-8' });
    const wsdl = new DOMParser().parseFromString(answer.body, 'text/xml').documentElement!;
    expect(wsdl.getAttribute('targetNamespace')).toBe(STATUS_NS);
    const soap11 = wsdl.getElementsByTagNameNS('http://schemas.xmlsoap.org/wsdl/soap/', 'address')[0];
    const soap12 = wsdl.getElementsByTagNameNS('http://schemas.xmlsoap.org/wsdl/soap12/', 'address')[0];
    for (const port of [soap11, soap12]) expect(port?.getAttribute('location')).toBe(`${standalone.sim.url}${path}`);
  });

  it('a path that names no service is not an endpoint: 404 with a fault; GET 405; other media types 415', async () => {
    const nowhere = await post('/ws/Nothing.asmx', soap12(STATUS_ACTION), statusEnvelope);
    expect(nowhere.status).toBe(404);
    expect(read(nowhere).fault?.reason).toMatch(/no web service at \/ws\/Nothing\.asmx/);
    expect((await post('/NFeStatusServico4', {}, '', 'GET')).status).toBe(405);
    expect((await post('/NFeStatusServico4', { 'content-type': 'application/json' }, '{}')).status).toBe(415);
  });
});

describe('our client reads answers as other servers write them', () => {
  const identity = generateSimulatorIdentity();
  let server: https.Server;
  let reply: { status: number; type: string; body: string } = { status: 200, type: 'text/xml', body: '' };

  beforeAll(async () => {
    server = https.createServer({ key: identity.keyPem, cert: identity.certPem }, (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(reply.status, { 'content-type': reply.type }).end(reply.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function client() {
    const { port } = server.address() as AddressInfo;
    return createSefazClient({ credentials: issuer.credentials, ca: [identity.caPem], endpointOverride: { baseUrl: `https://127.0.0.1:${port}` } });
  }

  it('a prefixed nfeResultMsg whose namespace is declared on the Envelope', async () => {
    const retConsStatServ = `<retConsStatServ versao="4.00" xmlns="${NFE}"><tpAmb>2</tpAmb><verAplic>X</verAplic><cStat>107</cStat><xMotivo>Servico em Operacao</xMotivo><cUF>29</cUF><dhRecbto>2026-01-01T10:00:00-03:00</dhRecbto><tMed>1</tMed></retConsStatServ>`;
    reply = {
      status: 200,
      type: 'application/soap+xml; charset=utf-8',
      body: `<env:Envelope xmlns:env="${SOAP12_NAMESPACE}" xmlns:ns2="${STATUS_NS}"><env:Header/><env:Body><ns2:nfeResultMsg>${retConsStatServ}</ns2:nfeResultMsg></env:Body></env:Envelope>`,
    };
    const c = client();
    try {
      expect(await c.status(BA)).toMatchObject({ kind: 'in-operation', cStat: 107, tMed: 1, responseXml: retConsStatServ });
    } finally {
      c.close();
    }
  });

  it('a SOAP 1.1 answer keeps the protocol byte-exact; a SOAP 1.1 fault is read as the authority unavailable', async () => {
    const ret = readFixture('samples/responses/retEnviNFe_sincrono_104_100_RS_nfce.xml').trim();
    const protNFe = /<protNFe[\s\S]*<\/protNFe>/.exec(ret)![0];
    reply = { status: 200, type: 'text/xml; charset=utf-8', body: `<s:Envelope xmlns:s="${SOAP11_NAMESPACE}"><s:Body><r:nfeResultMsg xmlns:r="${WSDL}NFeAutorizacao4">${ret}</r:nfeResultMsg></s:Body></s:Envelope>` };
    const c = client();
    try {
      const consulted = await c.consult({ ...BA, accessKey: '4'.repeat(44) });
      // The sample is a retEnviNFe: the consultation parser refuses it, which shows the envelope was read.
      expect(consulted).toMatchObject({ kind: 'unknown', reason: 'answer is not retConsSitNFe' });
      const out = await c.receipt({ ...BA, nRec: '431000000000001' });
      expect(out).toMatchObject({ kind: 'authorized', cStat: 100 });
      expect(out.kind === 'authorized' && out.protocol.protNFeXml).toBe(protNFe);
      reply = { status: 500, type: 'text/xml; charset=utf-8', body: `<soap:Envelope xmlns:soap="${SOAP11_NAMESPACE}"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Servidor indisponivel</faultstring></soap:Fault></soap:Body></soap:Envelope>` };
      expect(await c.status(BA)).toMatchObject({ kind: 'unavailable', xMotivo: 'Servidor indisponivel', httpStatus: 500 });
    } finally {
      c.close();
    }
  });
});
