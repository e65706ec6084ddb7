import { signElement } from '../../src/fiscal/xml/signature/sign.js';
import { NFE_NAMESPACE } from '../../src/fiscal/xml/xml-text.js';
import { brasiliaTime, type TestIssuer } from './authority-fixtures.js';

/** A signed cancellation event (110111, or 110112 by substitution) for an authorized key. */
export function signedCancellation(
  issuer: TestIssuer,
  p: { cnpj: string; accessKey: string; nProt: string; tpEvento?: '110111' | '110112'; substituteKey?: string },
): string {
  const tpEvento = p.tpEvento ?? '110111';
  const det =
    tpEvento === '110111'
      ? `<descEvento>Cancelamento</descEvento><nProt>${p.nProt}</nProt><xJust>Venda cancelada pelo cliente na loja</xJust>`
      : `<descEvento>Cancelamento por substituicao</descEvento><cOrgaoAutor>${p.accessKey.slice(0, 2)}</cOrgaoAutor><tpAutor>1</tpAutor>` +
        `<verAplic>gateway-1.0</verAplic><nProt>${p.nProt}</nProt><xJust>Venda emitida de novo em contingencia</xJust>` +
        `<chNFeRef>${p.substituteKey ?? p.accessKey}</chNFeRef>`;
  const xml =
    `<evento xmlns="${NFE_NAMESPACE}" versao="1.00"><infEvento Id="ID${tpEvento}${p.accessKey}01">` +
    `<cOrgao>${p.accessKey.slice(0, 2)}</cOrgao><tpAmb>2</tpAmb><CNPJ>${p.cnpj}</CNPJ><chNFe>${p.accessKey}</chNFe>` +
    `<dhEvento>${brasiliaTime(new Date())}</dhEvento><tpEvento>${tpEvento}</tpEvento><nSeqEvento>1</nSeqEvento>` +
    `<verEvento>1.00</verEvento><detEvento versao="1.00">${det}</detEvento></infEvento></evento>`;
  return signElement(xml, 'infEvento', issuer.signingKey).xml;
}

/** A signed inutNFe 4.00 for a range of NFC-e numbers (series 1, BA). */
export function signedInutilization(issuer: TestIssuer, p: { cnpj: string; from: number; to: number; serie?: number }): string {
  const serie = p.serie ?? 1;
  const ano = String(new Date().getUTCFullYear() % 100).padStart(2, '0');
  const id = `ID29${ano}${p.cnpj}65${String(serie).padStart(3, '0')}${String(p.from).padStart(9, '0')}${String(p.to).padStart(9, '0')}`;
  const xml =
    `<inutNFe xmlns="${NFE_NAMESPACE}" versao="4.00"><infInut Id="${id}"><tpAmb>2</tpAmb><xServ>INUTILIZAR</xServ>` +
    `<cUF>29</cUF><ano>${ano}</ano><CNPJ>${p.cnpj}</CNPJ><mod>65</mod><serie>${serie}</serie>` +
    `<nNFIni>${p.from}</nNFIni><nNFFin>${p.to}</nNFFin><xJust>Numeracao pulada por falha no sistema</xJust></infInut></inutNFe>`;
  return signElement(xml, 'infInut', issuer.signingKey).xml;
}
