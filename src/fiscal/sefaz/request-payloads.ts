import { NFE_NAMESPACE, el, leaf } from '../xml/xml-text.js';

/** Drops an XML declaration so a signed document can be embedded in a larger message unchanged. */
export function withoutXmlDeclaration(xml: string): string {
  return xml.replace(/^\uFEFF?\s*<\?xml[^?]*\?>\s*/, '');
}

const ns: ReadonlyArray<readonly [string, string]> = [['xmlns', NFE_NAMESPACE]];

/**
 * enviNFe 4.00 with one signed NF-e. indSinc=1: a lot holding a single note is processed
 * synchronously (docs/fiscal/sefaz-services.md#authorization-request-and-answer, NT 2025.001), so the answer carries protNFe directly.
 */
export function buildEnviNFe(signedNFeXml: string, idLote: string | number, indSinc: 0 | 1 = 1): string {
  const lote = String(idLote);
  // TLote: 1-15 digits (enviNFe_v4.00.xsd).
  if (!/^[0-9]{1,15}$/.test(lote)) throw new RangeError(`idLote must have 1-15 digits, got ${lote}`);
  return (
    `<enviNFe versao="4.00" xmlns="${NFE_NAMESPACE}">` +
    leaf('idLote', lote) +
    leaf('indSinc', indSinc) +
    withoutXmlDeclaration(signedNFeXml) +
    '</enviNFe>'
  );
}

/** consSitNFe 4.00: the protocol query by access key (the truth after a lost answer). */
export function buildConsSitNFe(tpAmb: 1 | 2, accessKey: string): string {
  return el('consSitNFe', leaf('tpAmb', tpAmb) + leaf('xServ', 'CONSULTAR') + leaf('chNFe', accessKey), [
    ['versao', '4.00'],
    ...ns,
  ]);
}

/** consStatServ 4.00 for the UF's IBGE code. */
export function buildConsStatServ(tpAmb: 1 | 2, cUF: string): string {
  return el('consStatServ', leaf('tpAmb', tpAmb) + leaf('cUF', cUF) + leaf('xServ', 'STATUS'), [
    ['versao', '4.00'],
    ...ns,
  ]);
}

/** consReciNFe 4.00: result of an asynchronous lot by receipt number. */
export function buildConsReciNFe(tpAmb: 1 | 2, nRec: string): string {
  return el('consReciNFe', leaf('tpAmb', tpAmb) + leaf('nRec', nRec), [['versao', '4.00'], ...ns]);
}

/** envEvento 1.00 wrapping already signed `<evento>` elements (1..20, docs/fiscal/events.md). */
export function buildEnvEvento(signedEventos: readonly string[], idLote: string | number): string {
  if (signedEventos.length < 1 || signedEventos.length > 20) throw new RangeError('envEvento holds 1 to 20 events');
  return (
    `<envEvento versao="1.00" xmlns="${NFE_NAMESPACE}">` +
    leaf('idLote', String(idLote)) +
    signedEventos.map(withoutXmlDeclaration).join('') +
    '</envEvento>'
  );
}
