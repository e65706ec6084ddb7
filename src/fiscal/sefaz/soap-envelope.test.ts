import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../kernel/paths.js';
import {
  actionFromSoapActionHeader,
  buildFaultEnvelope,
  buildRequestEnvelope,
  buildResponseEnvelope,
  parseEnvelope,
  SOAP11_NAMESPACE,
  SOAP12_NAMESPACE,
  soapVersionOfContentType,
} from './soap-envelope.js';

const NS = 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeStatusServico4';
// Payload with the bytes a re-serialiser would change: attribute quotes and order, spacing, CDATA, entities.
const PAYLOAD =
  "<retConsStatServ  xmlns=\"http://www.portalfiscal.inf.br/nfe\" versao='4.00'><tpAmb>2</tpAmb><cStat>107</cStat>" +
  '<xMotivo>Servi&#231;o em Opera&#xE7;&#227;o &amp; <![CDATA[<ok>]]></xMotivo><!-- </nfeResultMsg> --></retConsStatServ>';
const sample = (name: string) => readFileSync(join(PROJECT_ROOT, 'test/fixtures/samples/responses', name), 'utf8');

describe('parseEnvelope: the wrapper by namespace URI and local name, whatever its prefix', () => {
  it.each([
    ['default namespace on the wrapper', `<s:Envelope xmlns:s="${SOAP12_NAMESPACE}"><s:Body><nfeResultMsg xmlns="${NS}">${PAYLOAD}</nfeResultMsg></s:Body></s:Envelope>`],
    ['prefix declared on the Envelope', `<s:Envelope xmlns:s="${SOAP12_NAMESPACE}" xmlns:nfe="${NS}"><s:Body><nfe:nfeResultMsg>${PAYLOAD}</nfe:nfeResultMsg></s:Body></s:Envelope>`],
    ['prefix declared on the Body', `<soapenv:Envelope xmlns:soapenv="${SOAP12_NAMESPACE}"><soapenv:Body xmlns:r="${NS}"><r:nfeResultMsg>${PAYLOAD}</r:nfeResultMsg></soapenv:Body></soapenv:Envelope>`],
    ['default namespace on the Envelope, SOAP prefix on Header/Body', `<?xml version="1.0"?><!-- proxy --><S:Envelope xmlns:S="${SOAP12_NAMESPACE}" xmlns="${NS}"><S:Header/><S:Body><nfeResultMsg>${PAYLOAD}</nfeResultMsg></S:Body></S:Envelope>`],
    ['SOAP 1.1 envelope', `<soap:Envelope xmlns:soap="${SOAP11_NAMESPACE}"><soap:Body><a:nfeResultMsg xmlns:a="${NS}">\n${PAYLOAD}\n</a:nfeResultMsg></soap:Body></soap:Envelope>`],
  ])('%s', (_name, xml) => {
    const env = parseEnvelope(xml, 'nfeResultMsg');
    expect(env).toMatchObject({ kind: 'message', namespace: NS, version: xml.includes(SOAP11_NAMESPACE) ? '1.1' : '1.2' });
    // Byte-exact: signed content inside the wrapper is never re-serialised.
    expect(env.kind === 'message' && env.payload).toBe(PAYLOAD);
  });

  it('reports a wrapper without a namespace (or undeclared back to none) as such, for the caller to judge', () => {
    const none = `<e:Envelope xmlns:e="${SOAP12_NAMESPACE}" xmlns="${NS}"><e:Body><nfeDadosMsg xmlns="">${PAYLOAD}</nfeDadosMsg></e:Body></e:Envelope>`;
    expect(parseEnvelope(none, 'nfeDadosMsg')).toMatchObject({ kind: 'message', namespace: null });
    const other = `<e:Envelope xmlns:e="${SOAP12_NAMESPACE}"><e:Body><x:nfeDadosMsg xmlns:x="urn:other">${PAYLOAD}</x:nfeDadosMsg></e:Body></e:Envelope>`;
    expect(parseEnvelope(other, 'nfeDadosMsg')).toMatchObject({ kind: 'message', namespace: 'urn:other' });
  });

  it('finds the message under an operation element (NFeDistribuicaoDFe wraps nfeDadosMsg in nfeDistDFeInteresse)', () => {
    const ns = 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe';
    const xml = `<soap:Envelope xmlns:soap="${SOAP12_NAMESPACE}"><soap:Body><nfeDistDFeInteresse xmlns="${ns}"><nfeDadosMsg><distDFeInt xmlns="urn:nfe"/></nfeDadosMsg></nfeDistDFeInteresse></soap:Body></soap:Envelope>`;
    expect(parseEnvelope(xml, 'nfeDadosMsg')).toMatchObject({
      kind: 'message',
      namespace: ns,
      payload: '<distDFeInt xmlns="urn:nfe"/>',
      bodyElement: { localName: 'nfeDistDFeInteresse', namespace: ns },
    });
  });

  it('reads the real answers in the samples: a SOAP 1.2 header of layout 3.10 is skipped, spacing around the payload trimmed', () => {
    const inut = parseEnvelope(sample('soap12_retInutNFe_102.xml'), 'nfeResultMsg');
    expect(inut).toMatchObject({ kind: 'message', namespace: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeInutilizacao4' });
    expect(inut.kind === 'message' && inut.payload).toMatch(/^<retInutNFe [\s\S]*<\/retInutNFe>$/);
    const status = parseEnvelope(sample('soap12_retConsStatServ_107_SP_v3.10.xml'), 'nfeStatusServicoNF2Result');
    expect(status).toMatchObject({ kind: 'message', namespace: 'http://www.portalfiscal.inf.br/nfe/wsdl/NfeStatusServico2' });
  });

  it('reads faults of both versions: SOAP 1.2 Code/Reason, SOAP 1.1 faultcode/faultstring', () => {
    expect(parseEnvelope(buildFaultEnvelope('Sender', 'wrong <endpoint> & "action"'), 'nfeResultMsg')).toEqual({
      kind: 'fault',
      version: '1.2',
      code: 'soap:Sender',
      reason: 'wrong <endpoint> & "action"',
    });
    expect(parseEnvelope(buildFaultEnvelope('Sender', 'no such operation', '1.1'), 'nfeResultMsg')).toEqual({
      kind: 'fault',
      version: '1.1',
      code: 'soap:Client',
      reason: 'no such operation',
    });
    const axis = `<soapenv:Envelope xmlns:soapenv="${SOAP11_NAMESPACE}"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>Erro interno</faultstring><detail/></soapenv:Fault></soapenv:Body></soapenv:Envelope>`;
    expect(parseEnvelope(axis, 'nfeResultMsg')).toMatchObject({ kind: 'fault', code: 'soapenv:Server', reason: 'Erro interno' });
  });

  it.each([
    ['not XML', 'Service Unavailable', /no SOAP Envelope/],
    ['an Envelope of no SOAP version', `<Envelope xmlns="urn:x"><Body><nfeResultMsg/></Body></Envelope>`, /neither SOAP namespace/],
    ['an element that only looks like the wrapper in a comment', `<s:Envelope xmlns:s="${SOAP12_NAMESPACE}"><s:Body><!-- <nfeResultMsg>x</nfeResultMsg> --></s:Body></s:Envelope>`, /no nfeResultMsg/],
    ['a Body in another namespace', `<s:Envelope xmlns:s="${SOAP12_NAMESPACE}" xmlns:t="urn:t"><t:Body><nfeResultMsg/></t:Body></s:Envelope>`, /no SOAP Body/],
    ['an undeclared prefix', `<s:Envelope xmlns:s="${SOAP12_NAMESPACE}"><s:Body><n:nfeResultMsg>x</n:nfeResultMsg></s:Body></s:Envelope>`, /prefix n .* not declared/],
    ['crossed tags around the Body', `<s:Envelope xmlns:s="${SOAP12_NAMESPACE}"><s:Header><h></s:Header></h><s:Body><nfeResultMsg/></s:Body></s:Envelope>`, /does not close/],
    ['a document type declaration', `<!DOCTYPE x [<!ENTITY a "b">]><s:Envelope xmlns:s="${SOAP12_NAMESPACE}"/>`, /document type/],
    ['a truncated answer', buildResponseEnvelope(NS, PAYLOAD).slice(0, 200), /not well-formed/],
  ])('refuses %s', (_name, xml, reason) => {
    const env = parseEnvelope(xml, 'nfeResultMsg');
    expect(env.kind).toBe('invalid');
    expect(env.kind === 'invalid' && env.reason).toMatch(reason);
  });

  it('copies onto the payload root only the declarations from outside that the payload uses', () => {
    const nfe = 'http://www.portalfiscal.inf.br/nfe';
    const prefixed = `<s:Envelope xmlns:s="${SOAP12_NAMESPACE}" xmlns:n="${nfe}" xmlns:xsd="urn:unused"><s:Body><w:nfeDadosMsg xmlns:w="${NS}"><n:consStatServ versao="4.00"><n:tpAmb>2</n:tpAmb></n:consStatServ></w:nfeDadosMsg></s:Body></s:Envelope>`;
    expect(parseEnvelope(prefixed, 'nfeDadosMsg')).toMatchObject({
      payload: `<n:consStatServ xmlns:n="${nfe}" versao="4.00"><n:tpAmb>2</n:tpAmb></n:consStatServ>`,
    });
    // Unprefixed content under a default declared outside is in that namespace (even a wrong one: the service says so).
    const inherited = `<s:Envelope xmlns:s="${SOAP12_NAMESPACE}" xmlns="${nfe}"><s:Body><w:nfeDadosMsg xmlns:w="${NS}"><consStatServ versao="4.00"/></w:nfeDadosMsg></s:Body></s:Envelope>`;
    expect(parseEnvelope(inherited, 'nfeDadosMsg')).toMatchObject({ payload: `<consStatServ xmlns="${nfe}" versao="4.00"/>` });
  });

  it('leaves the well-formedness of the payload to the service that reads it, as before', () => {
    const env = parseEnvelope(`<s:Envelope xmlns:s="${SOAP12_NAMESPACE}"><s:Body><r:nfeResultMsg xmlns:r="${NS}"><a><b></a></r:nfeResultMsg></s:Body></s:Envelope>`, 'nfeResultMsg');
    expect(env).toMatchObject({ kind: 'message', payload: '<a><b></a>' });
  });

  it('round-trips what we write: request (SOAP 1.2) and answers in either version', () => {
    expect(parseEnvelope(buildRequestEnvelope(NS, PAYLOAD), 'nfeDadosMsg')).toMatchObject({ kind: 'message', version: '1.2', namespace: NS, payload: PAYLOAD });
    for (const version of ['1.1', '1.2'] as const) {
      expect(parseEnvelope(buildResponseEnvelope(NS, PAYLOAD, version), 'nfeResultMsg')).toMatchObject({ kind: 'message', version, namespace: NS, payload: PAYLOAD });
    }
  });
});

describe('SOAP versions over HTTP', () => {
  it('tells the version from the media type and reads the SOAP 1.1 action header', () => {
    expect(soapVersionOfContentType('application/soap+xml; charset=utf-8; action="urn:a"')).toBe('1.2');
    expect(soapVersionOfContentType('Text/XML; charset=utf-8')).toBe('1.1');
    expect(soapVersionOfContentType('application/xml')).toBeNull();
    expect(soapVersionOfContentType(undefined)).toBeNull();
    expect(actionFromSoapActionHeader('"http://www.portalfiscal.inf.br/nfe/wsdl/NFeStatusServico4/nfeStatusServicoNF"')).toBe(`${NS}/nfeStatusServicoNF`);
    expect(actionFromSoapActionHeader('""')).toBeNull();
    expect(actionFromSoapActionHeader(undefined)).toBeNull();
  });
});
