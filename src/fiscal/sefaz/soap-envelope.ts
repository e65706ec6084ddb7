import { elementTags, XmlScanError, type ElementTag } from './xml-namespaces.js';
import { decodeEntities, sliceElement } from './xml-slice.js';

// docs/fiscal/sefaz-services.md: the NF-e 4.00 web services are document/literal, no input header. Every official WSDL
// (assets/fiscal/wsdl/nfe_v4) binds each operation twice at one address: soap12 (SOAP 1.2) and soap
// (SOAP 1.1), with soapAction = namespace + '/' + operation. We send SOAP 1.2 and read either.
export const SOAP12_NAMESPACE = 'http://www.w3.org/2003/05/soap-envelope';
export const SOAP11_NAMESPACE = 'http://schemas.xmlsoap.org/soap/envelope/';
export const WSDL_NAMESPACE_BASE = 'http://www.portalfiscal.inf.br/nfe/wsdl/';

export type SoapVersion = '1.1' | '1.2';

const ENVELOPE_NAMESPACE: Record<SoapVersion, string> = { '1.1': SOAP11_NAMESPACE, '1.2': SOAP12_NAMESPACE };

/** Request envelope: the payload goes inside `nfeDadosMsg` in the service's WSDL namespace. */
export function buildRequestEnvelope(serviceNamespace: string, payloadXml: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap12:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap12="${SOAP12_NAMESPACE}">` +
    `<soap12:Body><nfeDadosMsg xmlns="${serviceNamespace}">${payloadXml}</nfeDadosMsg></soap12:Body></soap12:Envelope>`
  );
}

/** An envelope of this SOAP version around a Body's content, as the authorities' .NET servers write it. */
export function soapEnvelope(version: SoapVersion, bodyXml: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${ENVELOPE_NAMESPACE[version]}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<soap:Body>${bodyXml}</soap:Body></soap:Envelope>`
  );
}

/** Answer envelope as SEFAZ sends it (sample soap12_nfeResultMsg_retEnviNFe_104_100_RS_nfce.xml). */
export function buildResponseEnvelope(serviceNamespace: string, payloadXml: string, version: SoapVersion = '1.2'): string {
  return soapEnvelope(version, `<nfeResultMsg xmlns="${escapeXml(serviceNamespace)}">${payloadXml}</nfeResultMsg>`);
}

export type FaultCode = 'Sender' | 'Receiver' | 'VersionMismatch';

// SOAP 1.1 section 4.4.1 names the codes Client/Server; SOAP 1.2 part 1 section 5.4.6 Sender/Receiver.
const SOAP11_CODE: Record<FaultCode, string> = { Sender: 'Client', Receiver: 'Server', VersionMismatch: 'VersionMismatch' };

/** A fault (the authorities answer one for envelopes they cannot route), in the request's SOAP version. */
export function buildFaultEnvelope(code: FaultCode, reason: string, version: SoapVersion = '1.2'): string {
  const text = escapeXml(reason);
  if (version === '1.1') {
    // SOAP 1.1 section 4.4: faultcode and faultstring are unqualified children of Fault.
    return soapEnvelope('1.1', `<soap:Fault><faultcode>soap:${SOAP11_CODE[code]}</faultcode><faultstring>${text}</faultstring></soap:Fault>`);
  }
  return soapEnvelope(
    '1.2',
    `<soap:Fault><soap:Code><soap:Value>soap:${code}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${text}</soap:Text></soap:Reason></soap:Fault>`,
  );
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** `application/soap+xml; charset=utf-8; action="<ns>/<operation>"` (SOAP 1.2 carries the action in the type). */
export function soapContentType(action: string): string {
  return `application/soap+xml; charset=utf-8; action="${action}"`;
}

/** The content type of a message of this version: SOAP 1.2 application/soap+xml (RFC 3902), SOAP 1.1 text/xml. */
export function soapResponseContentType(version: SoapVersion): string {
  return version === '1.2' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
}

/** The SOAP version a content type announces, or null for another media type. */
export function soapVersionOfContentType(contentType: string | undefined): SoapVersion | null {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (media === 'application/soap+xml') return '1.2';
  if (media === 'text/xml') return '1.1';
  return null;
}

/** The action parameter of a SOAP 1.2 content type, or null. */
export function actionFromContentType(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*action\s*=\s*"?([^";]+)"?/i.exec(contentType);
  return m?.[1] ?? null;
}

/** The SOAPAction HTTP header of SOAP 1.1 (a quoted URI; "" and absent name no action). */
export function actionFromSoapActionHeader(header: string | string[] | undefined): string | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().replace(/^"(.*)"$/, '$1').trim();
  return value ? value : null;
}

export type ParsedEnvelope =
  | {
      kind: 'message';
      version: SoapVersion;
      /** Local name of the wrapper found (nfeDadosMsg, nfeResultMsg, ...). */
      wrapper: string;
      /** The wrapper's namespace URI, however it was declared (prefix or default, here or on an ancestor); null for none. */
      namespace: string | null;
      /** The exact text between the wrapper's tags (trimmed): signed content inside is untouched. */
      payload: string;
      /** The Body's first element (the wrapper itself, or the operation element around it: NFeDistribuicaoDFe). */
      bodyElement: { localName: string; namespace: string };
    }
  | { kind: 'fault'; version: SoapVersion; code: string | null; reason: string }
  | { kind: 'invalid'; version: SoapVersion | null; reason: string };

type Walk = { next(): IteratorResult<ElementTag> };

function nextStart(tags: Walk, within: number): ElementTag | null {
  for (let r = tags.next(); !r.done; r = tags.next()) {
    const t = r.value;
    if (t.kind === 'end' && t.depth <= within) return null;
    if (t.kind === 'start') return t;
  }
  return null;
}

function endOf(tags: Walk, start: ElementTag): ElementTag | null {
  if (start.selfClosing) return null;
  for (let r = tags.next(); !r.done; r = tags.next()) if (r.value.kind === 'end' && r.value.depth === start.depth) return r.value;
  return null;
}

/**
 * Finds the SOAP Body (1.1 or 1.2: the Envelope's namespace says which) and the message wrapper
 * inside it, matched by local name and resolved namespace whatever its prefix. A Fault in the Body
 * comes back as such. The payload is the exact text between the wrapper's tags.
 */
export function parseEnvelope(xml: string, wrapper: string): ParsedEnvelope {
  let version: SoapVersion | null = null;
  try {
    const tags = elementTags(xml);
    const envelope = nextStart(tags, 0);
    if (!envelope || envelope.localName !== 'Envelope') return { kind: 'invalid', version, reason: 'no SOAP Envelope element' };
    version = envelope.namespace === SOAP12_NAMESPACE ? '1.2' : envelope.namespace === SOAP11_NAMESPACE ? '1.1' : null;
    if (!version) return { kind: 'invalid', version, reason: `Envelope is in neither SOAP namespace (${envelope.namespace || 'none'})` };
    const soapNs = envelope.namespace;
    let body: ElementTag | null = null;
    for (let child = nextStart(tags, 1); child; child = nextStart(tags, 1)) {
      if (child.namespace === soapNs && child.localName === 'Body') {
        body = child;
        break;
      }
      endOf(tags, child); // Header: no header block of these services needs understanding
    }
    if (!body) return { kind: 'invalid', version, reason: 'no SOAP Body element' };
    let first: ElementTag | null = null;
    for (let el = nextStart(tags, 2); el; el = nextStart(tags, 2)) {
      first ??= el;
      if (el.depth === 3 && el.namespace === soapNs && el.localName === 'Fault') return fault(xml, tags, el, version);
      if (el.localName !== wrapper) continue;
      const payload = contentOf(xml, tags, el);
      if (payload === null) break;
      return {
        kind: 'message',
        version,
        wrapper,
        namespace: el.namespace || null,
        payload: standalone(payload.trim(), el.scope),
        bodyElement: { localName: first.localName, namespace: first.namespace },
      };
    }
    return { kind: 'invalid', version, reason: `no ${wrapper} element in the SOAP Body` };
  } catch (err) {
    if (err instanceof XmlScanError) return { kind: 'invalid', version, reason: `not well-formed: ${err.message}` };
    throw err;
  }
}

/**
 * The text between an element's tags. The payload (an NF-e lot: hundreds of KB) is not walked tag by
 * tag: its end is found by counting that element's own tags, which only a comment or CDATA section
 * could fool; when the content holds either, the walk decides.
 */
function contentOf(xml: string, tags: Walk, start: ElementTag): string | null {
  if (start.selfClosing) return '';
  const slice = sliceElement(xml, start.localName, start.start);
  if (slice?.start === start.start && !/<!--|<!\[CDATA\[/.test(slice.inner)) return slice.inner;
  const end = endOf(tags, start);
  return end ? xml.slice(start.end, end.start) : null;
}

/**
 * The payload read alone must mean what it meant inside the envelope (Namespaces 1.0 section 6.1: a
 * declaration reaches every descendant). When it uses a prefix, or the default namespace, declared
 * outside it, that declaration is copied onto its root's start tag; nothing else changes, and a
 * payload that declares what it uses (an NF-e lot does) keeps every byte.
 */
function standalone(payload: string, scope: ReadonlyMap<string, string>): string {
  const root = /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)(?=[\s/>])/.exec(payload);
  if (!root) return payload;
  const startTag = payload.slice(0, payload.indexOf('>') + 1);
  const missing: string[] = [];
  for (const [prefix, uri] of scope) {
    if (prefix === 'xml' || uri === '') continue;
    if (prefix === '') {
      if (!/\sxmlns\s*=/.test(startTag)) missing.push(`xmlns="${escapeXml(uri)}"`);
      continue;
    }
    const p = prefix.replace(/\./g, '\\.');
    if (new RegExp(`\\sxmlns:${p}\\s*=`).test(payload)) continue;
    if (new RegExp(`</?${p}:|\\s${p}:[A-Za-z_][\\w.-]*\\s*=`).test(payload)) missing.push(`xmlns:${prefix}="${escapeXml(uri)}"`);
  }
  if (missing.length === 0) return payload;
  const at = 1 + root[1]!.length;
  return `${payload.slice(0, at)} ${missing.join(' ')}${payload.slice(at)}`;
}

function fault(xml: string, tags: Walk, start: ElementTag, version: SoapVersion): ParsedEnvelope {
  const end = endOf(tags, start);
  const inner = end ? xml.slice(start.end, end.start) : '';
  // SOAP 1.2: Code/Value and Reason/Text; SOAP 1.1: faultcode and faultstring.
  const code = (version === '1.2' ? sliceElement(inner, 'Value') : sliceElement(inner, 'faultcode'))?.inner.trim() ?? null;
  const text = version === '1.2' ? sliceElement(inner, 'Text') : sliceElement(inner, 'faultstring');
  return { kind: 'fault', version, code, reason: decodeEntities(text?.inner.trim() ?? '') || 'SOAP fault' };
}
