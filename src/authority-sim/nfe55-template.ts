// A schema-valid NF-e 4.00 model 55 (homologation) for notes the simulator must hold without a
// gateway issuing them: a third-party supplier's sale to a recipient (received documents), and
// the model-55 notes of simulator tests. Its groups and totals are those of the real RS sample
// (test/fixtures/samples/nfe/nfe_v4.00_RS_homologacao_autorizada.xml: one item of 500.00, Simples
// Nacional CSOSN 202, cash payment), with its own key, parties and emission time.
import { buildAccessKey } from '../fiscal/layout/access-key.js';
import { el, leaf, NFE_NAMESPACE } from '../fiscal/xml/xml-text.js';
import { authorityTime } from './answers.js';
import { HOMOLOGATION_RECIPIENT } from './nfe-rules.js';

export interface Nfe55Spec {
  /** Issuer CNPJ (14 digits). */
  emitCnpj: string;
  emitName?: string;
  /** Recipient: a CNPJ (taxpayer with IE) or a CPF (non-taxpayer). */
  dest: { CNPJ: string } | { CPF: string };
  nNF: number;
  serie?: number;
  /** Emission time (written in Brasília time, which also gives the key's AAMM). */
  dhEmi: Date;
  /** 8 digits; derived from nNF when absent (never equal to it: NT 2019.001 B03-10). */
  cNF?: string;
  /** 6 (SVC-AN) with dhCont and xJust; 1 when absent. RS is served by SVC-AN (docs/fiscal/svc.md). */
  tpEmis?: 1 | 4 | 6;
}

/** The unsigned NFe element (issuer in RS, cUF 43) and its access key. */
export function nfe55Xml(spec: Nfe55Spec): { xml: string; accessKey: string } {
  const dhEmi = authorityTime(spec.dhEmi);
  const serie = spec.serie ?? 1;
  const cNF = spec.cNF ?? String(10_000_000 + ((spec.nNF * 7919 + 13) % 89_999_999)).padStart(8, '0');
  const accessKey = buildAccessKey({
    cUF: 43, emittedYear: Number(dhEmi.slice(0, 4)), emittedMonth: Number(dhEmi.slice(5, 7)), cnpj: spec.emitCnpj, mod: 55, serie, nNF: spec.nNF, tpEmis: spec.tpEmis ?? 1, cNF,
  });
  const taxpayer = 'CNPJ' in spec.dest;
  // MOC E16a-40 (696): a sale to a non-taxpayer (indIEDest 9) is a sale to a final consumer (indFinal 1).
  const ide =
    leaf('cUF', 43) + leaf('cNF', cNF) + leaf('natOp', 'Venda de producao do estabelecimento') + leaf('mod', 55) + leaf('serie', serie) +
    leaf('nNF', spec.nNF) + leaf('dhEmi', dhEmi) + leaf('tpNF', 1) + leaf('idDest', 2) + leaf('cMunFG', '4307609') + leaf('tpImp', 1) +
    leaf('tpEmis', spec.tpEmis ?? 1) + leaf('cDV', accessKey[43]!) + leaf('tpAmb', 2) + leaf('finNFe', 1) + leaf('indFinal', taxpayer ? 0 : 1) + leaf('indPres', 1) +
    leaf('procEmi', 0) + leaf('verProc', 'SIM-SEFAZ-1.0') +
    (spec.tpEmis === 6 || spec.tpEmis === 4 ? leaf('dhCont', dhEmi) + leaf('xJust', 'Autorizador da SEFAZ RS indisponivel') : '');
  const emit =
    leaf('CNPJ', spec.emitCnpj) + leaf('xNome', spec.emitName ?? 'FORNECEDOR SIMULADO LTDA') +
    el('enderEmit', leaf('xLgr', 'Rua dos Testes') + leaf('nro', '1020') + leaf('xBairro', 'Centro') + leaf('cMun', '4319901') + leaf('xMun', 'SAPIRANGA') +
      leaf('UF', 'RS') + leaf('CEP', '93800000') + leaf('cPais', '1058') + leaf('xPais', 'BRASIL')) +
    leaf('IE', '0018000762') + leaf('CRT', 1);
  const dest =
    ('CNPJ' in spec.dest ? leaf('CNPJ', spec.dest.CNPJ) : leaf('CPF', spec.dest.CPF)) + leaf('xNome', HOMOLOGATION_RECIPIENT) +
    el('enderDest', leaf('xLgr', 'Av. Teste') + leaf('nro', '2040') + leaf('xBairro', 'Centro') + leaf('cMun', '3550308') + leaf('xMun', 'SAO PAULO') +
      leaf('UF', 'SP') + leaf('CEP', '04207040') + leaf('cPais', '1058') + leaf('xPais', 'BRASIL')) +
    // indIEDest 1 = ICMS taxpayer (with IE), 9 = non-taxpayer (XSD doc of indIEDest).
    (taxpayer ? leaf('indIEDest', 1) + leaf('IE', '112006603110') : leaf('indIEDest', 9));
  const prod =
    leaf('cProd', '11007') + leaf('cEAN', 'SEM GTIN') + leaf('xProd', 'UM PRODUTO TESTE QUALQUER') + leaf('NCM', '64011000') + leaf('CEST', '2800100') + leaf('CFOP', '6101') +
    leaf('uCom', 'UN') + leaf('qCom', '10.0000') + leaf('vUnCom', '50') + leaf('vProd', '500.00') + leaf('cEANTrib', 'SEM GTIN') + leaf('uTrib', 'UN') +
    leaf('qTrib', '10.0000') + leaf('vUnTrib', '50.0000') + leaf('indTot', 1);
  const imposto =
    // A non-taxpayer receives no CSOSN 202 (MOC N12a-70, 600): 102 then.
    el('ICMS', taxpayer ? el('ICMSSN202', leaf('orig', 0) + leaf('CSOSN', '202') + leaf('modBCST', 4) + leaf('vBCST', '0.00') + leaf('pICMSST', '0.0000') + leaf('vICMSST', '0.00')) : el('ICMSSN102', leaf('orig', 0) + leaf('CSOSN', '102'))) +
    el('PIS', el('PISOutr', leaf('CST', '49') + leaf('vBC', '0.00') + leaf('pPIS', '0.0000') + leaf('vPIS', '0.00'))) +
    el('COFINS', el('COFINSOutr', leaf('CST', '49') + leaf('vBC', '0.00') + leaf('pCOFINS', '0.0000') + leaf('vCOFINS', '0.00')));
  const zero = (names: string[]) => names.map((n) => leaf(n, '0.00')).join('');
  const total = el(
    'ICMSTot',
    zero(['vBC', 'vICMS', 'vICMSDeson', 'vFCPUFDest', 'vICMSUFDest', 'vICMSUFRemet', 'vFCP', 'vBCST', 'vST', 'vFCPST', 'vFCPSTRet']) + leaf('vProd', '500.00') +
      zero(['vFrete', 'vSeg', 'vDesc', 'vII', 'vIPI', 'vIPIDevol', 'vPIS', 'vCOFINS', 'vOutro']) + leaf('vNF', '500.00'),
  );
  const inf =
    el('ide', ide) + el('emit', emit) + el('dest', dest) + el('det', el('prod', prod) + el('imposto', imposto), [['nItem', '1']]) + el('total', total) +
    el('transp', leaf('modFrete', 9)) + el('pag', el('detPag', leaf('tPag', '01') + leaf('vPag', '500.00')));
  const xml = el('NFe', el('infNFe', inf, [['Id', `NFe${accessKey}`], ['versao', '4.00']]), [['xmlns', NFE_NAMESPACE]]);
  return { xml, accessKey };
}
