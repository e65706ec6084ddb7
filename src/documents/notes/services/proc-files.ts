import { NFE_NAMESPACE } from '../../../fiscal/xml/xml-text.js';

/**
 * The distributable file (docs/fiscal/sefaz-services.md#authorization-request-and-answer, procNFe_v4.00.xsd): the signed NFe exactly as sent plus the
 * authority's protNFe exactly as received; neither is re-serialized, so both signatures hold.
 */
export function nfeProcXml(signedNFe: string, protNFeXml: string): string {
  return `<nfeProc versao="4.00" xmlns="${NFE_NAMESPACE}">${signedNFe}${protNFeXml}</nfeProc>`;
}

/** Archive form of a voided range (procInutNFe_v4.00.xsd): the signed inutNFe plus retInutNFe. */
export function procInutNfeXml(signedInutNFe: string, retInutNFeXml: string): string {
  return `<ProcInutNFe versao="4.00" xmlns="${NFE_NAMESPACE}">${signedInutNFe}${retInutNFeXml}</ProcInutNFe>`;
}
