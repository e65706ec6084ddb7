// Where a DPS element came from in the POST /v1/nfse request (or the issuer): an XSD failure or a
// Sefin rejection names an element (`/DPS/infDPS/toma/end/endNac/CEP`, Anexo I's `DPS/infDPS/toma/CPF`)
// and the caller needs the field to fix (`tomador.address.cep`).

const PARTY: Record<string, string> = {
  CNPJ: 'cnpj', CPF: 'cpf', NIF: 'nif', cNaoNIF: 'no_nif_reason', CAEPF: 'cpf', IM: 'municipal_registration', xNome: 'name', fone: 'phone', email: 'email',
};
const ADDRESS: Record<string, string> = {
  cMun: 'city_code', CEP: 'cep', cPais: 'country_code', cEndPost: 'postal_code', xCidade: 'city', xEstProvReg: 'state_region',
  xLgr: 'street', nro: 'number', xCpl: 'complement', xBairro: 'district',
};
const VALUES: Record<string, string> = {
  vServ: 'values.service_amount', vDescIncond: 'values.unconditional_discount', vDescCond: 'values.conditional_discount',
  vDR: 'values.deductions', pDR: 'values.deduction_rate', vDedRed: 'values.deductions',
  tribISSQN: 'values.iss.taxation', cPaisResult: 'values.iss.export_country', tpImunidade: 'values.iss.immunity_type',
  exigSusp: 'values.iss.suspension', tpSusp: 'values.iss.suspension.type', nProcesso: 'values.iss.suspension.process_number',
  tpRetISSQN: 'values.iss.retained', pAliq: 'values.iss.rate', tribMun: 'values.iss',
  piscofins: 'values.federal.pis_cofins', CST: 'values.federal.pis_cofins.cst', vBCPisCofins: 'values.federal.pis_cofins.base',
  pAliqPis: 'values.federal.pis_cofins.pis_rate', pAliqCofins: 'values.federal.pis_cofins.cofins_rate',
  vPis: 'values.federal.pis_cofins.pis_amount', vCofins: 'values.federal.pis_cofins.cofins_amount',
  tpRetPisCofins: 'values.federal.pis_cofins.withheld', vRetCP: 'values.federal.withholdings.cp',
  vRetIRRF: 'values.federal.withholdings.irrf', vRetCSLL: 'values.federal.withholdings.csll', tribFed: 'values.federal',
  totTrib: 'values.approximate_taxes', vTotTrib: 'values.approximate_taxes', pTotTrib: 'values.approximate_taxes', indTotTrib: 'values.approximate_taxes',
  vTotTribFed: 'values.approximate_taxes.federal', vTotTribEst: 'values.approximate_taxes.state', vTotTribMun: 'values.approximate_taxes.municipal',
  pTotTribFed: 'values.approximate_taxes.federal_rate', pTotTribEst: 'values.approximate_taxes.state_rate', pTotTribMun: 'values.approximate_taxes.municipal_rate',
  pTotTribSN: 'values.simples_nacional_rate',
};
const SERVICE: Record<string, string> = {
  cTribNac: 'service.national_code', cTribMun: 'service.municipal_code', cNBS: 'service.nbs', xDescServ: 'service.description',
  cLocPrestacao: 'service.place_of_provision.city_code', cPaisPrestacao: 'service.place_of_provision.country_code', locPrest: 'service.place_of_provision',
};
const FOREIGN_TRADE: Record<string, string> = {
  mdPrestacao: 'provision_mode', vincPrest: 'relationship', tpMoeda: 'currency', vServMoeda: 'foreign_amount', mecAFComexP: 'provider_support',
  mecAFComexT: 'taker_support', movTempBens: 'temporary_goods', nDI: 'import_declaration', nRE: 'export_registration', mdic: 'share_with_mdic',
};
const REFORM: Record<string, string> = { cIndOp: 'reform.operation_code', CST: 'reform.cst', cClassTrib: 'reform.class_code', indFinal: 'reform.final_consumer' };
// The provider's block comes from the issuer record (PATCH /v1/issuers/:id), never from the sale.
const PROVIDER: Record<string, string> = {
  IM: 'issuer.nfse.municipal_registration', opSimpNac: 'issuer.regime_tributario', regApTribSN: 'issuer.nfse.simples_regime',
  regEspTrib: 'issuer.nfse.special_regime', fone: 'issuer.endereco.telefone', CNPJ: 'issuer.cnpj', CPF: 'issuer.cnpj',
};
const DPS_FIELDS: Record<string, string> = {
  dCompet: 'competence_date', serie: 'issuer.nfse.dps_series', nDPS: 'issuer.nfse.dps_series', cLocEmi: 'issuer.endereco.codigo_municipio',
  Signature: 'issuer.nfse.signature_profile', subst: 'substitutes', chSubstda: 'substitutes.nfse_id', cMotivo: 'substitutes.reason_code', xMotivo: 'substitutes.reason',
};

/** `DPS/infDPS/toma/end/endNac/CEP` (with or without a leading slash, positions `[1]` ignored) -> `tomador.address.cep`, or null. */
export function dpsPathToField(path: string): string | null {
  const parts = path.replace(/\[\d+\]/g, '').split('/').filter((p) => p !== '' && p !== 'NFSe' && p !== 'infNFSe');
  if (parts[0] === 'DPS') parts.shift();
  if (parts.length === 0) return null;
  if (parts[0] === 'Signature') return DPS_FIELDS.Signature!;
  if (parts[0] === 'infDPS') parts.shift();
  const [group, ...rest] = parts;
  if (!group) return null;
  const leaf = rest[rest.length - 1];
  switch (group) {
    case 'toma':
    case 'interm': {
      const base = group === 'toma' ? 'tomador' : 'intermediario';
      if (rest[0] === 'end') return leaf && ADDRESS[leaf] ? `${base}.address.${ADDRESS[leaf]}` : `${base}.address`;
      return leaf && PARTY[leaf] ? `${base}.${PARTY[leaf]}` : base;
    }
    case 'prest':
      return (leaf && PROVIDER[leaf]) || 'issuer';
    case 'serv':
      if (rest[0] === 'comExt') return leaf && FOREIGN_TRADE[leaf] ? `service.foreign_trade.${FOREIGN_TRADE[leaf]}` : 'service.foreign_trade';
      return (leaf && SERVICE[leaf]) || 'service';
    case 'valores':
      return (leaf && VALUES[leaf]) || 'values';
    case 'IBSCBS':
      return (leaf && REFORM[leaf]) || 'reform';
    case 'subst':
      return (leaf && DPS_FIELDS[leaf]) || 'substitutes';
    default:
      return DPS_FIELDS[group] ?? null;
  }
}
