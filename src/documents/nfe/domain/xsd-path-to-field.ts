import { steps, xsdPathToField } from '../../goods/domain/xsd-path-to-field.js';
import type { NfeRequest } from './nfe-request.js';

// An XSD error path of an NF-e we built (/NFe/infNFe/det[3]/imposto/IPI/IPITrib/pIPI) -> the
// request field it came from (items[2].ipi.rate). Items, issuer and payments map as in the NFC-e
// (same names); the groups only model 55 has are mapped here. Null when nothing in the request
// or the issuer wrote the element.

const DEST: Record<string, string> = {
  CPF: 'cpf', CNPJ: 'cnpj', idEstrangeiro: 'id_estrangeiro', xNome: 'name', email: 'email', IE: 'ie', indIEDest: 'indicador_ie',
  xLgr: 'address.street', nro: 'address.number', xCpl: 'address.complement', xBairro: 'address.district', cMun: 'address.city_code',
  xMun: 'address.city', UF: 'address.uf', CEP: 'address.cep', fone: 'address.phone', cPais: 'address.country_code', xPais: 'address.country',
};
const IDE: Record<string, string> = { natOp: 'natureza_operacao', finNFe: 'finalidade', indPres: 'presenca', indFinal: 'consumidor_final', idDest: 'destinatario.address', tpNF: 'items[0].cfop' };
const CARRIER: Record<string, string> = { CNPJ: 'cnpj', CPF: 'cpf', xNome: 'name', IE: 'ie', xEnder: 'address', xMun: 'city', UF: 'uf' };
const VOL: Record<string, string> = { qVol: 'quantity', esp: 'species', marca: 'brand', nVol: 'numbering', pesoL: 'net_weight', pesoB: 'gross_weight' };
const PROD: Record<string, string> = { vFrete: 'freight', vSeg: 'insurance', vOutro: 'other_expenses' };
/** The relief group's fields (vICMSDeson, motDesICMS, indDeduzDeson) and their request names. */
const RELIEF_FIELD: Record<string, string> = { vICMSDeson: 'amount', motDesICMS: 'reason', indDeduzDeson: 'deducted' };
/** ICMSPart and ICMSST fields that only model 55 writes. */
const ICMS_INTERSTATE: Record<string, string> = {
  pBCOp: 'icms_partilha.operation_base_share', UFST: 'icms_partilha.uf_st', vBCSTDest: 'st_repasse.destination_base', vICMSSTDest: 'st_repasse.destination_amount',
  vBCFCPSTRet: 'st_repasse.retained_fcp.base', pFCPSTRet: 'st_repasse.retained_fcp.rate', vFCPSTRet: 'st_repasse.retained_fcp.amount',
};

export function nfeXsdPathToField(path: string, req?: Pick<NfeRequest, 'payment' | 'payments'>): string | null {
  const s = steps(path);
  const start = s.findIndex(([name]) => name === 'infNFe');
  if (start < 0) return null;
  const [group, position = 1] = s[start + 1] ?? [];
  const rest = s.slice(start + 2);
  const names = rest.map(([n]) => n);
  const last = names.at(-1);
  switch (group) {
    case 'ide':
      if (names[0] === 'NFref') return `referenced_documents[${rest[0]![1] - 1}]`;
      return last && IDE[last] ? IDE[last] : null;
    case 'dest':
      return `destinatario${last && DEST[last] ? '.' + DEST[last] : ''}`;
    case 'autXML':
      return `aut_xml[${position - 1}]`;
    case 'transp':
      if (names[0] === 'transporta') return `transporte.transportadora${last && CARRIER[last] ? '.' + CARRIER[last] : ''}`;
      if (names[0] === 'veicTransp') return `transporte.veiculo${last ? '.' + last.toLowerCase() : ''}`;
      if (names[0] === 'vol') return `transporte.volumes[${rest[0]![1] - 1}]${last && VOL[last] ? '.' + VOL[last] : ''}`;
      return 'transporte.modalidade';
    case 'cobr':
      if (names[0] === 'dup') return `cobranca.duplicatas[${rest[0]![1] - 1}]${last === 'dVenc' ? '.vencimento' : last === 'vDup' ? '.valor' : ''}`;
      return last === 'vDesc' ? 'cobranca.fatura.desconto' : last === 'nFat' ? 'cobranca.fatura.numero' : 'cobranca.fatura.valor_original';
    case 'infIntermed':
      return last === 'idCadIntTran' ? 'intermediador.id_cadastro' : 'intermediador.cnpj';
    case 'exporta':
      return last === 'xLocDespacho' ? 'export.dispatch_place' : last === 'xLocExporta' ? 'export.shipment_place' : 'export.shipment_uf';
    case 'infAdic':
      return last === 'infAdFisco' ? 'fisco_info' : 'additional_info';
    case 'det': {
      const item = `items[${position - 1}]`;
      if (names[0] === 'prod' && last && PROD[last]) return PROD[last];
      if (names[1] === 'IPI') return `${item}.ipi${last === 'cEnq' ? '.enquadramento' : last === 'CST' ? '.cst' : last === 'pIPI' || last === 'vIPI' ? '.rate' : last === 'vBC' ? '.base' : ''}`;
      if (names[1] === 'ICMSUFDest') return `${item}.difal${last === 'pFCPUFDest' || last === 'vFCPUFDest' ? '.fcp_rate' : last === 'vBCUFDest' ? '.base' : last === 'pICMSUFDest' ? '.destination_rate' : ''}`;
      if (names[1] === 'ICMS' && last && ICMS_INTERSTATE[last]) return `${item}.${ICMS_INTERSTATE[last]}`;
      if (names[1] === 'ICMS' && (last === 'pDif' || last === 'vICMSDif')) return `${item}.deferral_rate`;
      if (names[1] === 'ICMS' && last && RELIEF_FIELD[last]) return `${item}.icms_relief.${RELIEF_FIELD[last]}`;
      break;
    }
  }
  return xsdPathToField(path, req);
}
