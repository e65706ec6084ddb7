import { sliceElement } from './xml-slice.js';

// FACTS 4: the NF-e 4.00 web services are SOAP 1.2, document/literal, no input header.
export const SOAP12_NAMESPACE = 'http://www.w3.org/2003/05/soap-envelope';
export const WSDL_NAMESPACE_BASE = 'http://www.portalfiscal.inf.br/nfe/wsdl/';

/** Request envelope: the payload goes inside `nfeDadosMsg` in the service's WSDL namespace. */
export function buildRequestEnvelope(serviceNamespace: string, payloadXml: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap12:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap12="${SOAP12_NAMESPACE}">` +
    `<soap12:Body><nfeDadosMsg xmlns="${serviceNamespace}">${payloadXml}</nfeDadosMsg></soap12:Body></soap12:Envelope>`
  );
}

/** Answer envelope as SEFAZ sends it (sample soap12_nfeResultMsg_retEnviNFe_104_100_RS_nfce.xml). */
export function buildResponseEnvelope(serviceNamespace: string, payloadXml: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${SOAP12_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<soap:Body><nfeResultMsg xmlns="${serviceNamespace}">${payloadXml}</nfeResultMsg></soap:Body></soap:Envelope>`
  );
}

/** SOAP 1.2 fault (the authorities answer one for envelopes they cannot route). */
export function buildFaultEnvelope(code: 'Sender' | 'Receiver', reason: string): string {
  const text = reason.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${SOAP12_NAMESPACE}"><soap:Body><soap:Fault>` +
    `<soap:Code><soap:Value>soap:${code}</soap:Value></soap:Code>` +
    `<soap:Reason><soap:Text xml:lang="en">${text}</soap:Text></soap:Reason>` +
    '</soap:Fault></soap:Body></soap:Envelope>'
  );
}

/** `application/soap+xml; charset=utf-8; action="<ns>/<operation>"` (SOAP 1.2 carries the action in the type). */
export function soapContentType(action: string): string {
  return `application/soap+xml; charset=utf-8; action="${action}"`;
}

/** The action parameter of a SOAP 1.2 content type, or null. */
export function actionFromContentType(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*action\s*=\s*"?([^";]+)"?/i.exec(contentType);
  return m?.[1] ?? null;
}

export type ParsedEnvelope =
  | { kind: 'message'; wrapper: 'nfeDadosMsg' | 'nfeResultMsg'; namespace: string | null; payload: string }
  | { kind: 'fault'; reason: string }
  | { kind: 'invalid'; reason: string };

/**
 * Finds the SOAP 1.2 Body and the message wrapper inside it. The payload is returned as the exact
 * text between the wrapper tags, so signed content inside it is untouched.
 */
export function parseEnvelope(xml: string, wrapper: 'nfeDadosMsg' | 'nfeResultMsg'): ParsedEnvelope {
  const envelope = sliceElement(xml, 'Envelope');
  if (!envelope) return { kind: 'invalid', reason: 'no SOAP Envelope element' };
  const nsDecl = envelope.prefix ? `xmlns:${envelope.prefix}` : 'xmlns';
  if (!envelope.outer.slice(0, envelope.outer.indexOf('>')).includes(`${nsDecl}="${SOAP12_NAMESPACE}"`)) {
    return { kind: 'invalid', reason: 'Envelope is not in the SOAP 1.2 namespace' };
  }
  const body = sliceElement(envelope.inner, 'Body');
  if (!body) return { kind: 'invalid', reason: 'no SOAP Body element' };
  const fault = sliceElement(body.inner, 'Fault');
  if (fault) {
    const text = sliceElement(fault.inner, 'Text') ?? sliceElement(fault.inner, 'faultstring');
    return { kind: 'fault', reason: text?.inner.trim() || 'SOAP fault' };
  }
  const msg = sliceElement(body.inner, wrapper);
  if (!msg) return { kind: 'invalid', reason: `no ${wrapper} element in the SOAP Body` };
  const startTag = msg.outer.slice(0, msg.outer.indexOf('>'));
  const ns = /\sxmlns\s*=\s*"([^"]*)"/.exec(startTag)?.[1] ?? null;
  return { kind: 'message', wrapper, namespace: ns, payload: msg.inner.trim() };
}
