// A synthetic authorised nfeProc of model 55 with the real structure of the 4.00 layout (unsigned:
// the DANFE does not check signatures), for DANFE NF-e tests of any size.
import { buildAccessKey } from '../../src/fiscal/layout/access-key.js';

export interface NfeProcSampleOptions {
  items: number;
  tpAmb?: 1 | 2;
  nNF?: number;
  infCpl?: string;
  duplicates?: number;
  /** Extra elements inside total (IBSCBSTot...), as XML. */
  ibsCbsTotal?: string;
}

export const SAMPLE_PROTOCOL = '135260000123456';
export const SAMPLE_RECIPIENT = 'COMERCIAL DESTINO DE TESTES LTDA';

/** "ITEM-0007": appears once in the XML and once on the DANFE. */
export const itemCode = (n: number) => `ITEM-${String(n).padStart(4, '0')}`;

function det(n: number): string {
  const long = n % 3 === 0;
  const description = long
    ? `PARAFUSO SEXTAVADO ACO INOX M${n} X 50 MM ROSCA TOTAL CLASSE A2-70 CAIXA COM CEM UNIDADES LINHA INDUSTRIAL`
    : `ARRUELA LISA ZINCADA ${n} MM PACOTE COM CINQUENTA`;
  const qty = `${n}.0000`;
  const unit = '12.3400';
  const total = ((n * 1234) / 100).toFixed(2);
  const base = total;
  const icms = ((n * 1234 * 0.18) / 100).toFixed(2);
  return (
    `<det nItem="${n}"><prod><cProd>${itemCode(n)}</cProd><cEAN>SEM GTIN</cEAN><xProd>${description}</xProd><NCM>73181500</NCM>` +
    `<CFOP>5102</CFOP><uCom>UN</uCom><qCom>${qty}</qCom><vUnCom>${unit}</vUnCom><vProd>${total}</vProd><cEANTrib>SEM GTIN</cEANTrib>` +
    `<uTrib>UN</uTrib><qTrib>${qty}</qTrib><vUnTrib>${unit}</vUnTrib><indTot>1</indTot></prod>` +
    `<imposto><vTotTrib>0.00</vTotTrib><ICMS><ICMS00><orig>0</orig><CST>00</CST><modBC>3</modBC><vBC>${base}</vBC><pICMS>18.0000</pICMS><vICMS>${icms}</vICMS></ICMS00></ICMS>` +
    `<IPI><cEnq>999</cEnq><IPITrib><CST>50</CST><vBC>${base}</vBC><pIPI>5.0000</pIPI><vIPI>${((n * 1234 * 0.05) / 100).toFixed(2)}</vIPI></IPITrib></IPI>` +
    `<PIS><PISNT><CST>07</CST></PISNT></PIS><COFINS><COFINSNT><CST>07</CST></COFINSNT></COFINS></imposto>` +
    (long ? `<infAdProd>Lote L${n}-2026 validade indeterminada</infAdProd>` : '') +
    `</det>`
  );
}

export function nfeProcSample(o: NfeProcSampleOptions): { xml: string; key: string } {
  const nNF = o.nNF ?? 4321;
  const key = buildAccessKey({ cUF: 35, emittedYear: 2026, emittedMonth: 11, cnpj: '11222333000181', mod: 55, serie: 1, nNF, tpEmis: 1, cNF: '12345678' });
  const vProd = Array.from({ length: o.items }, (_, i) => (i + 1) * 1234).reduce((a, b) => a + b, 0) / 100;
  const dups = Array.from({ length: o.duplicates ?? 3 }, (_, i) => `<dup><nDup>${String(i + 1).padStart(3, '0')}</nDup><dVenc>2027-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}</dVenc><vDup>10.00</vDup></dup>`).join('');
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><NFe><infNFe Id="NFe${key}" versao="4.00">` +
    `<ide><cUF>35</cUF><cNF>12345678</cNF><natOp>VENDA DE MERCADORIA</natOp><mod>55</mod><serie>1</serie><nNF>${nNF}</nNF>` +
    `<dhEmi>2026-11-20T10:15:00-03:00</dhEmi><dhSaiEnt>2026-11-20T11:00:00-03:00</dhSaiEnt><tpNF>1</tpNF><idDest>1</idDest><cMunFG>3550308</cMunFG>` +
    `<tpImp>1</tpImp><tpEmis>1</tpEmis><cDV>${key.slice(-1)}</cDV><tpAmb>${o.tpAmb ?? 2}</tpAmb><finNFe>1</finNFe><indFinal>0</indFinal><indPres>1</indPres><procEmi>0</procEmi><verProc>test</verProc></ide>` +
    `<emit><CNPJ>11222333000181</CNPJ><xNome>FERRAGENS EMITENTE DE TESTES LTDA</xNome><xFant>FERRAGENS</xFant><enderEmit><xLgr>Rua das Flores</xLgr><nro>100</nro><xBairro>Centro</xBairro>` +
    `<cMun>3550308</cMun><xMun>SAO PAULO</xMun><UF>SP</UF><CEP>01001000</CEP><cPais>1058</cPais><xPais>BRASIL</xPais><fone>1133334444</fone></enderEmit><IE>111222333444</IE><CRT>3</CRT></emit>` +
    `<dest><CNPJ>58716523000119</CNPJ><xNome>${SAMPLE_RECIPIENT}</xNome><enderDest><xLgr>Av. Brasil</xLgr><nro>2040</nro><xBairro>Jardim</xBairro><cMun>3509502</cMun><xMun>CAMPINAS</xMun>` +
    `<UF>SP</UF><CEP>13015121</CEP><cPais>1058</cPais><xPais>BRASIL</xPais><fone>1932353459</fone></enderDest><indIEDest>1</indIEDest><IE>244827055110</IE></dest>` +
    Array.from({ length: o.items }, (_, i) => det(i + 1)).join('') +
    `<total><ICMSTot><vBC>${vProd.toFixed(2)}</vBC><vICMS>0.00</vICMS><vICMSDeson>0.00</vICMSDeson><vFCP>0.00</vFCP><vBCST>0.00</vBCST><vST>0.00</vST><vFCPST>0.00</vFCPST><vFCPSTRet>0.00</vFCPSTRet>` +
    `<vProd>${vProd.toFixed(2)}</vProd><vFrete>0.00</vFrete><vSeg>0.00</vSeg><vDesc>0.00</vDesc><vII>0.00</vII><vIPI>0.00</vIPI><vIPIDevol>0.00</vIPIDevol><vPIS>0.00</vPIS><vCOFINS>0.00</vCOFINS>` +
    `<vOutro>0.00</vOutro><vNF>${vProd.toFixed(2)}</vNF><vTotTrib>0.00</vTotTrib></ICMSTot>${o.ibsCbsTotal ?? ''}</total>` +
    `<transp><modFrete>0</modFrete><transporta><CNPJ>99888777000166</CNPJ><xNome>TRANSPORTES RAPIDOS LTDA</xNome><IE>123456789012</IE><xEnder>Rod. Anhanguera km 10</xEnder><xMun>JUNDIAI</xMun><UF>SP</UF></transporta>` +
    `<vol><qVol>3</qVol><esp>CAIXA</esp><marca>FERRAGENS</marca><pesoL>30.500</pesoL><pesoB>31.250</pesoB></vol><vol><qVol>2</qVol><esp>CAIXA</esp><pesoL>10.000</pesoL><pesoB>10.500</pesoB></vol></transp>` +
    `<cobr><fat><nFat>${nNF}</nFat><vOrig>${vProd.toFixed(2)}</vOrig><vDesc>0.00</vDesc><vLiq>${vProd.toFixed(2)}</vLiq></fat>${dups}</cobr>` +
    `<pag><detPag><tPag>15</tPag><vPag>${vProd.toFixed(2)}</vPag></detPag></pag>` +
    `<infAdic>${o.infCpl ? `<infCpl>${o.infCpl}</infCpl>` : ''}<infAdFisco>ICMS RECOLHIDO CONFORME REGIME NORMAL</infAdFisco></infAdic>` +
    `</infNFe></NFe><protNFe versao="4.00"><infProt><tpAmb>${o.tpAmb ?? 2}</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><chNFe>${key}</chNFe>` +
    `<dhRecbto>2026-11-20T10:15:30-03:00</dhRecbto><nProt>${SAMPLE_PROTOCOL}</nProt><digVal>AAAAAAAAAAAAAAAAAAAAAAAAAAA=</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe></nfeProc>`;
  return { xml, key };
}
