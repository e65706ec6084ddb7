// NFeDistribuicaoDFe's SOAP 1.2 message shape differs from the 4.00 services': its WSDL wraps the
// payload in the operation element (nfeDistDFeInteresse/nfeDadosMsg, answer
// nfeDistDFeInteresseResponse/nfeDistDFeInteresseResult), all in the service namespace
// (wsdl/nfe_v4/nfedistribuicaodfe.wsdl, elementFormDefault qualified).
import { parseEnvelope, SOAP12_NAMESPACE, type ParsedEnvelope } from './soap-envelope.js';

export const DISTRIBUTION_NAMESPACE = 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe';

export function buildDistributionRequestEnvelope(payloadXml: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap12:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap12="${SOAP12_NAMESPACE}">` +
    `<soap12:Body><nfeDistDFeInteresse xmlns="${DISTRIBUTION_NAMESPACE}"><nfeDadosMsg>${payloadXml}</nfeDadosMsg></nfeDistDFeInteresse></soap12:Body></soap12:Envelope>`
  );
}

/** The answer's envelope as the client reads it: a fault, or the retDistDFeInt payload inside nfeDistDFeInteresseResult. */
export function parseDistributionEnvelope(envelopeXml: string): ParsedEnvelope {
  const env = parseEnvelope(envelopeXml, 'nfeResultMsg');
  return env.kind !== 'invalid' ? env : parseEnvelope(envelopeXml, 'nfeDistDFeInteresseResult');
}
