import type { SaleTenders } from './sale-item.js';

// Maps an XSD error path of a document we built (e.g. /NFe/infNFe/det[3]/prod/NCM, from
// src/fiscal/xml/xsd validateNfe) to the request field it came from (items[2].ncm), so a schema
// failure can be reported like a validation error; the issuer block (emit) maps to `issuer.<field>`.
// Null when the element is neither request nor issuer data.

const PROD: Record<string, string> = {
  cProd: 'code', cEAN: 'gtin', cEANTrib: 'gtin', xProd: 'description', NCM: 'ncm', CEST: 'cest', cBenef: 'benefit_code', CFOP: 'cfop', uCom: 'unit', uTrib: 'unit',
  qCom: 'quantity', qTrib: 'quantity', vUnCom: 'unit_price', vUnTrib: 'unit_price', vProd: 'unit_price', vDesc: 'discount',
};

// prod/rastro and prod/med (docs/fiscal/medicines.md): items[].batches[k] and items[].medicine.
const BATCH: Record<string, string> = { nLote: 'number', qLote: 'quantity', dFab: 'manufactured_on', dVal: 'expires_on', cAgreg: 'aggregation_code' };
const MEDICINE: Record<string, string> = { cProdANVISA: 'anvisa_code', xMotivoIsencao: 'exemption_reason', vPMC: 'max_consumer_price' };

// prod/veicProd (docs/fiscal/vehicles-and-foreign-trade.md): items[].vehicle of an NF-e.
const VEHICLE: Record<string, string> = {
  tpOp: 'operation_type', chassi: 'chassis', cCor: 'color_code', xCor: 'color_description', pot: 'power', cilin: 'displacement',
  pesoL: 'net_weight', pesoB: 'gross_weight', nSerie: 'serial_number', tpComb: 'fuel_type', nMotor: 'engine_number', CMT: 'max_traction',
  dist: 'wheelbase', anoMod: 'model_year', anoFab: 'manufacture_year', tpPint: 'paint_type', tpVeic: 'vehicle_type', espVeic: 'vehicle_species',
  VIN: 'vin_condition', condVeic: 'condition', cMod: 'model_code', cCorDENATRAN: 'denatran_color', lota: 'seating_capacity', tpRest: 'restriction',
};

const ICMS: Record<string, string> = {
  orig: 'origin', CST: 'cst_icms', CSOSN: 'cst_icms', vBC: 'vBC', pICMS: 'pICMS', vICMS: 'pICMS', pRedBC: 'icms_base_reduction',
  pFCP: 'fcp_rate', vFCP: 'fcp_rate', vBCFCP: 'vBC', modBCST: 'st.modality', pMVAST: 'st.mva', pRedBCST: 'st.base_reduction',
  vBCST: 'st.base', pICMSST: 'st.rate', vICMSST: 'st.rate', vBCFCPST: 'st.base', pFCPST: 'st.fcp_rate', vFCPST: 'st.fcp_rate',
  vBCSTRet: 'st_retained.base', pST: 'st_retained.rate', vICMSSubstituto: 'st_retained.substitute_amount', vICMSSTRet: 'st_retained.amount',
  pCredSN: 'simples_credit_rate', vCredICMSSN: 'simples_credit_rate',
};

const REFORM: Record<string, string> = {
  CST: 'reform.cst', cClassTrib: 'reform.class_code', pIBSUF: 'reform.ibs_state_rate', pIBSMun: 'reform.ibs_municipal_rate', pCBS: 'reform.cbs_rate', pRedAliq: 'reform.rate_reduction',
  CSTIS: 'reform.selective_tax.cst', cClassTribIS: 'reform.selective_tax.class_code', pIS: 'reform.selective_tax.rate',
};

const DEST: Record<string, string> = {
  CPF: 'consumer.cpf', CNPJ: 'consumer.cnpj', xNome: 'consumer.name', email: 'consumer.email',
  xLgr: 'consumer.address.street', nro: 'consumer.address.number', xCpl: 'consumer.address.complement', xBairro: 'consumer.address.district',
  cMun: 'consumer.address.city_code', xMun: 'consumer.address.city', UF: 'consumer.address.uf', CEP: 'consumer.address.cep', fone: 'consumer.address.phone',
};

// The issuer block comes from the stored issuer, not from the sale: its fields are named as in
// /v1/issuers, under `issuer.`, so the caller knows which issuer field to PATCH.
// xMun is the name of the municipality the code points to; UF and CNPJ cannot be changed.
const EMIT: Record<string, string> = {
  CNPJ: 'cnpj', CPF: 'cnpj', xNome: 'razao_social', xFant: 'nome_fantasia', IE: 'ie', CRT: 'regime_tributario', UF: 'uf',
};
const ENDER_EMIT: Record<string, string> = {
  xLgr: 'logradouro', nro: 'numero', xCpl: 'complemento', xBairro: 'bairro', cMun: 'codigo_municipio', xMun: 'codigo_municipio',
  CEP: 'cep', fone: 'telefone', UF: 'uf',
};

const PAYMENT: Record<string, string> = { tPag: 'method', vPag: 'amount', xPag: 'description', tBand: 'card_brand', cAut: 'card_authorization', CNPJ: 'acquirer_cnpj', tpIntegra: 'integrated' };

/** Steps of the path without namespace prefixes: [["det", 3], ["prod", 1], ["NCM", 1]]. */
const CARRIER: Record<string, string> = { CNPJ: 'cnpj', CPF: 'cpf', xNome: 'name', IE: 'ie', xEnder: 'address', xMun: 'city', UF: 'uf' };

export function steps(path: string): Array<[string, number]> {
  return path
    .split('/')
    .filter(Boolean)
    .map((s) => {
      const m = /^(?:[\w-]+:)?([\w-]+)(?:\[(\d+)\])?$/.exec(s);
      return [m?.[1] ?? s, m?.[2] ? Number(m[2]) : 1] as [string, number];
    });
}

export function xsdPathToField(path: string, sale?: SaleTenders): string | null {
  const s = steps(path);
  const start = s.findIndex(([name]) => name === 'infNFe');
  if (start < 0) return null;
  const [group, position] = s[start + 1] ?? [];
  const names = s.slice(start + 2).map(([n]) => n);
  const last = names.at(-1);
  if (group === 'det' && position !== undefined) {
    const item = `items[${position - 1}]`;
    if (!last) return item;
    if (names[0] === 'prod' && names[1] === 'rastro') {
      const batch = `${item}.batches[${s[start + 3]![1] - 1}]`;
      return names.length > 2 && BATCH[last] ? `${batch}.${BATCH[last]}` : batch;
    }
    if (names[0] === 'prod' && names[1] === 'med') return names.length > 2 && MEDICINE[last] ? `${item}.medicine.${MEDICINE[last]}` : `${item}.medicine`;
    if (names[0] === 'prod' && names[1] === 'veicProd') return names.length > 2 && VEHICLE[last] ? `${item}.vehicle.${VEHICLE[last]}` : `${item}.vehicle`;
    if (names[0] === 'prod') return PROD[last] ? `${item}.${PROD[last]}` : item;
    if (names[0] === 'infAdProd') return `${item}.additional_info`;
    if (names[0] !== 'imposto') return item;
    if (last === 'vTotTrib') return `${item}.approximate_taxes`;
    if (names[1] === 'ICMS') return ICMS[last] ? `${item}.${ICMS[last]}` : `${item}.cst_icms`;
    if (names[1] === 'PIS' || names[1] === 'COFINS') return `${item}.${names[1].toLowerCase()}${last === 'CST' ? '.cst' : last.startsWith('p') ? '.rate' : ''}`;
    if (names[1] === 'IBSCBS' || names[1] === 'IS') return REFORM[last] ? `${item}.${REFORM[last]}` : `${item}.reform`;
    return item;
  }
  if (group === 'emit') {
    if (names[0] !== 'enderEmit') return last && EMIT[last] ? `issuer.${EMIT[last]}` : 'issuer';
    if (last === 'UF') return 'issuer.uf';
    return last && ENDER_EMIT[last] ? `issuer.endereco.${ENDER_EMIT[last]}` : 'issuer.endereco';
  }
  if (group === 'dest') return last ? (DEST[last] ?? 'consumer') : 'consumer';
  if (group === 'pag') {
    const detPag = s.slice(start + 2).find(([n]) => n === 'detPag');
    if (!detPag) return sale?.payments ? 'payments' : 'payment';
    const base = sale?.payment && !sale.payments ? 'payment' : `payments[${detPag[1] - 1}]`;
    return last && PAYMENT[last] ? `${base}.${PAYMENT[last]}` : base;
  }
  if (group === 'infAdic') return 'additional_info';
  // transp/transporta: `transporte` in both requests (the NFC-e's home delivery, the NF-e's freight).
  if (group === 'transp') return names[0] === 'transporta' ? `transporte.transportadora${last && CARRIER[last] ? '.' + CARRIER[last] : ''}` : 'transporte.modalidade';
  if (group === 'total') return last === 'vTotTrib' ? 'approximate_taxes' : last === 'vDesc' ? 'discount' : null;
  return null;
}
