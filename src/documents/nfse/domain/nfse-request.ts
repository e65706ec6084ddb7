import { Type, type Static } from 'typebox';
import { BuyerEmailOptionSchema } from '../../../kernel/buyer-email-option.js';

// The NFS-e (Padrão Nacional, DPS 1.01) creation request, POST /v1/nfse. Names follow /v1/nfce and
// /v1/nfe (snake_case, the party names tomador/intermediario as the layout calls them); each field
// says which DPS element it becomes. Totals (ISS base and amount, vLiq) are computed, never asked for.

const money = (description: string, example: number) =>
  Type.Number({ description: `${description} Reais, at most 2 decimals.`, examples: [example] });
const percent = (description: string, example: number) =>
  Type.Number({ description: `${description} Percent (5 = 5%), at most 2 decimals.`, examples: [example] });

export const NfseAddressSchema = Type.Object(
  {
    street: Type.String({ description: 'xLgr (1-255).', examples: ['Rua das Flores'] }),
    number: Type.String({ description: 'nro (1-60).', examples: ['100'] }),
    complement: Type.Optional(Type.String({ description: 'xCpl (1-156).', examples: ['Sala 2'] })),
    district: Type.String({ description: 'xBairro (1-60).', examples: ['Centro'] }),
    city_code: Type.Optional(Type.String({ description: 'endNac/cMun: IBGE municipality code, 7 digits (address in Brazil).', examples: ['3304557'] })),
    cep: Type.Optional(Type.String({ description: 'endNac/CEP, 8 digits (address in Brazil).', examples: ['20010000'] })),
    country_code: Type.Optional(Type.String({ description: 'endExt/cPais: ISO 3166 alpha-2 country code other than BR (address abroad).', examples: ['US'] })),
    postal_code: Type.Optional(Type.String({ description: 'endExt/cEndPost: postal code abroad (1-11).', examples: ['10001'] })),
    city: Type.Optional(Type.String({ description: 'endExt/xCidade: city abroad (1-60).', examples: ['New York'] })),
    state_region: Type.Optional(Type.String({ description: 'endExt/xEstProvReg: state, province or region abroad (1-60).', examples: ['NY'] })),
  },
  { additionalProperties: false, description: 'An address in Brazil (city_code and cep) or abroad (country_code, postal_code, city, state_region).' },
);

export const NO_NIF_REASONS = { isento: 1, nao_exigido: 2 } as const;

export const NfsePartySchema = Type.Object(
  {
    cnpj: Type.Optional(Type.String({ description: 'CNPJ, 14 characters (punctuation ignored).', examples: ['11222333000181'] })),
    cpf: Type.Optional(Type.String({ description: 'CPF, 11 digits (punctuation ignored).', examples: ['52998224725'] })),
    nif: Type.Optional(Type.String({ description: 'NIF: foreign tax id (1-40), for a party abroad.', examples: ['123-45-6789'] })),
    no_nif_reason: Type.Optional(
      Type.Union([Type.Literal('isento'), Type.Literal('nao_exigido')], { description: 'cNaoNIF, for a party abroad without NIF: isento (1) or nao_exigido (2).', examples: ['nao_exigido'] }),
    ),
    municipal_registration: Type.Optional(Type.String({ description: 'IM: municipal registration (1-15).', examples: ['12345'] })),
    name: Type.String({ description: 'xNome: name or company name (1-300).', examples: ['Maria da Silva'] }),
    address: Type.Optional(NfseAddressSchema),
    email: Type.Optional(Type.String({ description: 'email (1-80).', examples: ['maria@example.com'] })),
    phone: Type.Optional(Type.String({ description: 'fone: digits only, 6-20.', examples: ['21999998888'] })),
  },
  { additionalProperties: false, description: 'A person or company: exactly one of cnpj, cpf, nif or no_nif_reason.' },
);

export const ISS_TAXATION = { tributavel: 1, imunidade: 2, exportacao: 3, nao_incidencia: 4 } as const;
export const ISS_RETENTION = { nao_retido: 1, tomador: 2, intermediario: 3 } as const;
const keysOf = <T extends object>(o: T) => Object.keys(o) as Array<keyof T & string>;

export const NfseIssSchema = Type.Object(
  {
    taxation: Type.Optional(Type.Enum(keysOf(ISS_TAXATION), { description: 'tribISSQN: tributavel (default), imunidade, exportacao or nao_incidencia.', examples: ['tributavel'] })),
    immunity_type: Type.Optional(Type.Integer({ description: 'tpImunidade (0-5), with taxation imunidade.', examples: [1] })),
    export_country: Type.Optional(Type.String({ description: 'cPaisResult: ISO alpha-2 country where the result of the service happens; required or refused by the export scenario (E0590, E0591).', examples: ['US'] })),
    suspension: Type.Optional(
      Type.Object(
        {
          type: Type.Union([Type.Literal('decisao_judicial'), Type.Literal('processo_administrativo')], { description: 'tpSusp: 1 judicial decision, 2 administrative process.', examples: ['decisao_judicial'] }),
          process_number: Type.String({ description: 'nProcesso: number of the process, 30 digits.', examples: ['000000000000000000001234567890'] }),
        },
        { additionalProperties: false, description: 'exigSusp: the ISSQN\'s enforceability is suspended; only with taxation tributavel (E0585).' },
      ),
    ),
    rate: Type.Optional(percent('pAliq: ISSQN rate, up to 5 (E0595). Absent for MEI, special regimes and non-taxable services (E0600, E0604, E0602); required for an ME/EPP of the Simples (ISSQN through the SN) with ISSQN withheld (E0621, at least 1.8) and absent for it when nothing is withheld (E0625, E0631); for a provider outside the Simples Nacional Sefin refuses it where the municipality is active in the national system (E0617) and requires it elsewhere (E0619).', 2)),
    retained: Type.Enum(keysOf(ISS_RETENTION), { description: 'tpRetISSQN: nao_retido, tomador (withheld by the taker) or intermediario.', examples: ['nao_retido'] }),
  },
  { additionalProperties: false, description: 'ISSQN (tribMun).' },
);

/** comExt (TCComExterior) codes, as Anexo I's layout sheet lists them (docs/fiscal/exports-and-delivery.md); 0 "unknown" is refused by Sefin (E0333, E0345). */
export const PROVISION_MODES = { transfronteirico: 1, consumo_no_brasil: 2, movimento_temporario_pessoas: 3, consumo_no_exterior: 4 } as const;
export const RELATIONSHIPS = { sem_vinculo: 0, controlada: 1, controladora: 2, coligada: 3, matriz: 4, filial: 5, outro: 6 } as const;
export const TEMPORARY_GOODS = { nao: 1, declaracao_importacao: 2, declaracao_exportacao: 3 } as const;

export const NfseForeignTradeSchema = Type.Object(
  {
    provision_mode: Type.Enum(keysOf(PROVISION_MODES), { description: 'mdPrestacao: transfronteirico (1), consumo_no_brasil (2), movimento_temporario_pessoas (3), consumo_no_exterior (4).', examples: ['transfronteirico'] }),
    relationship: Type.Enum(keysOf(RELATIONSHIPS), { description: 'vincPrest: link between provider and taker (Lei 9.430/1996 art. 23): sem_vinculo (0), controlada (1), controladora (2), coligada (3), matriz (4), filial (5), outro (6).', examples: ['sem_vinculo'] }),
    currency: Type.String({ description: 'tpMoeda: the currency of the transaction, its 3-digit code in the Banco Central currency table (e.g. 220 US dollar, 978 euro).', pattern: '^[0-9]{3}$', examples: ['220'] }),
    foreign_amount: Type.Number({ description: 'vServMoeda: the value of the service in that currency, at most 2 decimals.', examples: [300] }),
    provider_support: Type.String({ description: 'mecAFComexP: the provider\'s foreign-trade support mechanism, 01-08 (01 none, 02 ACC, 03 ACE, 04 BNDES-Exim post-shipment, 05 BNDES-Exim pre-shipment, 06 FGE, 07 PROEX equalization, 08 PROEX financing); 00 is refused (E0341).', pattern: '^0[1-8]$', examples: ['01'] }),
    taker_support: Type.String({ description: 'mecAFComexT: the taker\'s foreign-trade support mechanism, 01-26 as TSMecAFComExToma lists them (01 none, 24 royalties and technical assistance, ...); 00 is refused (E0343).', pattern: '^(0[1-9]|1[0-9]|2[0-6])$', examples: ['01'] }),
    temporary_goods: Type.Enum(keysOf(TEMPORARY_GOODS), { description: 'movTempBens: is the operation tied to a temporary movement of goods: nao (1), declaracao_importacao (2, needs import_declaration, E0352), declaracao_exportacao (3, needs export_registration, E0356).', examples: ['nao'] }),
    import_declaration: Type.Optional(Type.String({ description: 'nDI: the import declaration (DI/DSI/DA/DRI-E), 1-12 characters; not with temporary_goods nao (E0354).', examples: ['2412345678'] })),
    export_registration: Type.Optional(Type.String({ description: 'nRE: the export registration (RE), 1-12 characters; not with temporary_goods nao (E0354).', examples: ['240123456001'] })),
    share_with_mdic: Type.Optional(Type.Boolean({ description: 'mdic: share this NFS-e with the Secretaria de Comercio Exterior (MDIC); default false.', examples: [false] })),
  },
  {
    additionalProperties: false,
    description: 'comExt: foreign trade data, required in an export of services (Anexo I E0330): a taker or intermediary abroad, a service provided abroad (place_of_provision.country_code) or taxation exportacao.',
  },
);

export const NfsePisCofinsSchema = Type.Object(
  {
    cst: Type.String({ description: 'CST of PIS/COFINS (TSTipoCST); with 00, 08 or 09 no base, rates nor withheld are due.', pattern: '^[0-9]{2}$', examples: ['01'] }),
    base: Type.Optional(money('vBCPisCofins (> 0, at most service_amount); default: service_amount minus unconditional_discount and the deductions. Absent with CST 00, 08, 09 (E0682).', 1000)),
    pis_rate: Type.Optional(percent('pAliqPis (required with a base, E0684; 0 with CST 04 and 06, E0688).', 0.65)),
    cofins_rate: Type.Optional(percent('pAliqCofins (required with a base, E0690; 0 with CST 04 and 06, E0688).', 3)),
    pis_amount: Type.Optional(money('vPis; computed as base x pis_rate; when given it must equal that (E0694).', 6.5)),
    cofins_amount: Type.Optional(money('vCofins; computed as base x cofins_rate; when given it must equal that (E0696).', 30)),
    withheld: Type.Optional(Type.Integer({ description: 'tpRetPisCofins (0-9, TSTipoRetPISCofins): which of PIS, COFINS and CSLL the taker withholds; required with a CST other than 00, 08, 09 (E0698); other than 0 and 2 needs withholdings.csll (E0724), 0 forbids it (E0720).', examples: [0] })),
  },
  { additionalProperties: false, description: 'PIS and COFINS (tribFed/piscofins). Both end with 2026 (ADCT art. 126 II b, LC 214/2025 art. 542): for a competence_date in 2027 or later only CST 00, 08 or 09 and withheld 0, 2 or 8 (CSLL alone) are accepted (422 otherwise).' },
);

export const NfseValuesSchema = Type.Object(
  {
    service_amount: money('vServ: value of the service (> 0).', 1000),
    deductions: Type.Optional(money('vDR: deductions/reductions of the ISSQN base, as an amount (or give deduction_rate). Only for a taxable service of a provider neither MEI nor in a special regime (E0435, E0436, E0438); an ME/EPP paying ISSQN through the SN deducts only for 06.01, 06.02, 07.02, 07.05 (E0441/E0442); with a rate, the ISSQN may not fall below 2 % but for 7.02, 7.05, 16.01 (E0444, E0447).', 0)),
    deduction_rate: Type.Optional(percent('pDR: deductions/reductions of the ISSQN base as a share of service_amount minus unconditional_discount (0.01-100, E0453); or give deductions.', 10)),
    unconditional_discount: Type.Optional(money('vDescIncond.', 0)),
    conditional_discount: Type.Optional(money('vDescCond.', 0)),
    iss: NfseIssSchema,
    approximate_taxes: Type.Optional(
      Type.Object(
        {
          federal: Type.Optional(money('vTotTribFed: approximate federal taxes (0 to service_amount, E0702).', 76)),
          state: Type.Optional(money('vTotTribEst: approximate state taxes (0 to service_amount, E0703).', 0)),
          municipal: Type.Optional(money('vTotTribMun: approximate municipal taxes (0 to service_amount, E0704).', 50)),
          federal_rate: Type.Optional(percent('pTotTribFed: approximate federal taxes as a share of the price (0-100, E0706).', 7.6)),
          state_rate: Type.Optional(percent('pTotTribEst: approximate state taxes (0-100, E0707).', 0)),
          municipal_rate: Type.Optional(percent('pTotTribMun: approximate municipal taxes (0-100, E0708).', 5)),
        },
        {
          additionalProperties: false,
          description:
            'totTrib: the approximate taxes of Lei 12.741/2012, either the three amounts (vTotTrib) or the three rates (pTotTrib). Required for a provider outside the Simples Nacional (Sefin refuses indTotTrib and pTotTribSN for it, E0713); an ME/EPP gives this or simples_nacional_rate (E0712); a MEI may leave both out (indTotTrib 0, no estimate, Decreto 8.264/2014).',
        },
      ),
    ),
    simples_nacional_rate: Type.Optional(percent('pTotTribSN: the approximate taxes as the Simples Nacional rate of an ME/EPP provider (0-99.99); refused for a MEI (E0710) and for a provider outside the Simples Nacional (E0713). An ME/EPP gives this or approximate_taxes: Sefin refuses indTotTrib for it (E0712).', 6)),
    federal: Type.Optional(
      Type.Object(
        {
          pis_cofins: Type.Optional(NfsePisCofinsSchema),
          withholdings: Type.Optional(
            Type.Object(
              { csll: Type.Optional(money('vRetCSLL.', 10)), irrf: Type.Optional(money('vRetIRRF.', 15)), cp: Type.Optional(money('vRetCP: social security (INSS).', 110)) },
              { additionalProperties: false, description: 'Federal amounts withheld by the taker.' },
            ),
          ),
        },
        { additionalProperties: false, description: 'Federal taxes (tribFed).' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const NfseReformSchema = Type.Object(
  {
    operation_code: Type.String({ description: 'cIndOp: operation indicator, 6 digits, of Anexo C\'s IndOp table (E0901); the operations with real estate (020101, 020201, 020301) need the imovel group, not offered yet (E0932).', pattern: '^[0-9]{6}$', examples: ['100301'] }),
    cst: Type.String({ description: 'CST of IBS/CBS, 3 digits.', pattern: '^[0-9]{3}$', examples: ['000'] }),
    class_code: Type.String({ description: 'cClassTrib, 6 digits, beginning with its CST (E0959).', pattern: '^[0-9]{6}$', examples: ['000001'] }),
    final_consumer: Type.Optional(Type.Boolean({ description: 'indFinal: the taker is a final consumer.', examples: [false] })),
  },
  { additionalProperties: false, description: 'IBSCBS (2026 reform): only when the account\'s tax regime is reform_2026; needs service.nbs (E0322). The destination is the taker (indDest 0); a different destination (indDest 1 with dest), government purchases and tpOper are not offered yet.' },
);

export const NfseRequestSchema = Type.Object(
  {
    issuer_id: Type.String({ description: 'The issuer (provider) of the account.', examples: ['iss_01J...'] }),
    external_ref: Type.Optional(Type.String({ description: 'Your reference for this note (1-60).', examples: ['OS-2026-0042'] })),
    allow_duplicate_external_ref: Type.Optional(Type.Boolean({ description: 'Issue another document for this external_ref even when a live note of the issuer (processing, contingency or authorized) of this model holds it; without it that sale is refused with 409 duplicate_external_ref naming the note (details[0].note_id). A rejected, denied or canceled note does not hold it.', examples: [false] })),
    competence_date: Type.String({ description: 'dCompet: date the service was provided (YYYY-MM-DD), not after the emission (E0015).', examples: ['2026-03-10'] }),
    service: Type.Object(
      {
        national_code: Type.String({ description: 'cTribNac: national taxation code, 6 digits (LC 116 item, sub-item, detail). Construction work (07.02.01, 07.02.02, 07.04.01, 07.05.01, 07.05.02, 07.06.01, 07.06.02, 07.07.01, 07.08.01, 07.17.01, 07.19.01: the obra group, E0370) and item 12 (events: the atvEvento group, E0390) are not offered yet.', examples: ['010101'] }),
        municipal_code: Type.Optional(Type.String({ description: 'cTribMun: municipal taxation code, 3 digits, not 000 (E0315).', examples: ['001'] })),
        nbs: Type.Optional(Type.String({ description: 'cNBS: NBS code, 9 digits; required with the reform group (E0322) and in an export of services: a taker or intermediary abroad, or place_of_provision.country_code (E0318).', examples: ['115022000'] })),
        description: Type.String({ description: 'xDescServ: what was provided (1-2000).', examples: ['Desenvolvimento de software sob encomenda'] }),
        place_of_provision: Type.Object(
          {
            city_code: Type.Optional(Type.String({ description: 'cLocPrestacao: IBGE code of the municipality, 7 digits.', examples: ['3304557'] })),
            country_code: Type.Optional(Type.String({ description: 'cPaisPrestacao: ISO alpha-2 country other than BR (service provided abroad).', examples: ['US'] })),
          },
          { additionalProperties: false, description: 'locPrest: exactly one of city_code or country_code.' },
        ),
        foreign_trade: Type.Optional(NfseForeignTradeSchema),
      },
      { additionalProperties: false, description: 'The service (serv/cServ).' },
    ),
    tomador: Type.Optional(NfsePartySchema),
    email: Type.Optional(BuyerEmailOptionSchema),
    intermediario: Type.Optional(NfsePartySchema),
    values: NfseValuesSchema,
    reform: Type.Optional(NfseReformSchema),
    substitutes: Type.Optional(
      Type.Object(
        {
          nfse_id: Type.String({ description: 'The authorized NFS-e (of this issuer) this one replaces; Sefin cancels it by substitution (event 105102) when this one is authorized.', examples: ['nfse_01J...'] }),
          reason_code: Type.Union(['01', '02', '03', '04', '05', '99'].map((c) => Type.Literal(c)), {
            description: 'cMotivo (TSCodJustSubst): 01 left the Simples Nacional, 02 entered it, 03 retroactive immunity/exemption, 04 its retroactive removal, 05 refused by the taker or intermediary, 99 other.',
            examples: ['99'],
          }),
          reason: Type.Optional(Type.String({ description: 'xMotivo (15-255 characters); required with reason_code 99 (Anexo I E0078).', examples: ['Valor do servico informado com erro'] })),
        },
        { additionalProperties: false, description: 'subst: this NFS-e replaces another (FACTS 16.5). It keeps the replaced one\'s competence_date, LC 116 sub-item (first 4 digits of national_code), municipal_code and place_of_provision when the provider is outside the Simples Nacional (Anexo I E0060), and its competence_date, service_amount and taker (when it had one) for a MEI or ME/EPP (E0061).' },
      ),
    ),
  },
  { additionalProperties: false },
);

export type NfseRequest = Static<typeof NfseRequestSchema>;
export type NfseParty = Static<typeof NfsePartySchema>;
export type NfseAddress = Static<typeof NfseAddressSchema>;
export type NfseForeignTrade = Static<typeof NfseForeignTradeSchema>;
