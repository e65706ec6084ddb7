import type { Translations } from './template-catalog.js';

// The NFS-e request validators' sentences in Brazilian Portuguese, keyed by the English template
// (see domain-goods-pt-br.ts). test/api-language-catalog.test.ts lists those still missing.

export const NFSE_PT_BR: Translations = {
  // validate-nfse-parties.ts
  'must be 6 to 20 digits': 'deve ter de 6 a 20 dígitos',
  'must be the 7-digit IBGE municipality code (or give country_code for an address abroad)': 'deve ser o código IBGE do município, de 7 dígitos (ou informe country_code para um endereço no exterior)',
  'must have exactly one of cnpj, cpf, nif or no_nif_reason': 'deve ter exatamente um de cnpj, cpf, nif ou no_nif_reason',
  'is not a valid CNPJ: check the 14 characters and the two check digits (Anexo I {})': 'não é um CNPJ válido: confira os 14 caracteres e os dois dígitos verificadores (Anexo I {})',
  'must not be the provider itself (same CNPJ root, Anexo I {})': 'não pode ser o próprio prestador (mesma raiz de CNPJ, Anexo I {})',
  'is not a valid CPF: check the 11 digits and the two check digits (Anexo I {})': 'não é um CPF válido: confira os 11 dígitos e os dois dígitos verificadores (Anexo I {})',
  'is not an e-mail address (name@domain.tld)': 'não é um endereço de e-mail (nome@dominio.tld)',
  'is required for a taker identified by CNPJ (Anexo I E0235)': 'é obrigatório para um tomador identificado por CNPJ (Anexo I E0235)',
  'is required abroad (country_code, postal_code, city, state_region) for a party identified by NIF (Anexo I {})':
    'é obrigatório no exterior (country_code, postal_code, city, state_region) para uma parte identificada por NIF (Anexo I {})',
  'give either city_code and cep (Brazil) or country_code (abroad), not both': 'informe city_code e cep (Brasil) ou country_code (exterior), não os dois',
  'must be an ISO 3166-1 alpha-2 country code other than BR (Anexo I {})': 'deve ser um código de país ISO 3166-1 alfa-2 diferente de BR (Anexo I {})',
  'an address abroad needs a party identified by nif or no_nif_reason (Anexo I {})': 'um endereço no exterior exige uma parte identificada por nif ou no_nif_reason (Anexo I {})',
  'is not a municipality of the IBGE table (Anexo I {})': 'não é um município da tabela do IBGE (Anexo I {})',
  'is required: a party identified by NIF has an address abroad (Anexo I {})': 'é obrigatório: uma parte identificada por NIF tem endereço no exterior (Anexo I {})',
  // validate-nfse.ts: the service and its place
  'must not be 000 (Anexo I E0315); leave it out when the municipality has no code of its own': 'não pode ser 000 (Anexo I E0315); deixe-o de fora quando o município não tem código próprio',
  'is required with the reform group (Anexo I E0322)': 'é obrigatório com o grupo da reforma (Anexo I E0322)',
  'is required in an export of services: a taker or intermediary abroad, or a service provided abroad (Anexo I E0318)':
    'é obrigatório numa exportação de serviços: tomador ou intermediário no exterior, ou serviço prestado no exterior (Anexo I E0318)',
  'must have exactly one of city_code or country_code': 'deve ter exatamente um de city_code ou country_code',
  'is not a municipality of the IBGE table (Anexo I E0302)': 'não é um município da tabela do IBGE (Anexo I E0302)',
  'must be a country other than BR (Anexo I E0304; use city_code in Brazil)': 'deve ser um país diferente de BR (Anexo I E0304; no Brasil use city_code)',
  // validate-nfse.ts: ISSQN
  'is required when a Simples Nacional ME/EPP provider has the ISSQN withheld (Anexo I E0621)': 'é obrigatório quando um prestador ME/EPP do Simples Nacional tem o ISSQN retido (Anexo I E0621)',
  'must be absent unless taxation is tributavel (Anexo I E0602)': 'deve ficar de fora, salvo com taxation tributavel (Anexo I E0602)',
  'must be absent for a MEI provider (Anexo I E0600)': 'deve ficar de fora para um prestador MEI (Anexo I E0600)',
  'must be absent when the provider has a special tax regime (Anexo I E0604)': 'deve ficar de fora quando o prestador tem regime especial de tributação (Anexo I E0604)',
  'must be at most 5 (Anexo I E0595)': 'deve ser no máximo 5 (Anexo I E0595)',
  'must be absent for a Simples Nacional ME/EPP provider paying ISSQN through the SN when it is not withheld (Anexo I E0625, E0631)':
    'deve ficar de fora para um prestador ME/EPP do Simples Nacional que recolhe o ISSQN pelo SN quando ele não é retido (Anexo I E0625, E0631)',
  'must be at least 1.8 for a Simples Nacional ME/EPP provider with ISSQN withheld (Anexo I E0621)': 'deve ser ao menos 1.8 para um prestador ME/EPP do Simples Nacional com ISSQN retido (Anexo I E0621)',
  "the issuer's NFS-e data: {}": 'os dados de NFS-e do emitente: {}',
  'give either deductions or deduction_rate, not both': 'informe deductions ou deduction_rate, não os dois',
  'must be at most 100 (Anexo I E0453)': 'deve ser no máximo 100 (Anexo I E0453)',
  'must be less than service_amount (Anexo I E0431)': 'deve ser menor que service_amount (Anexo I E0431)',
  'must be less than service_amount (Anexo I E0432)': 'deve ser menor que service_amount (Anexo I E0432)',
  'must not exceed service_amount (Anexo I E0427)': 'não pode passar de service_amount (Anexo I E0427)',
  'plus unconditional_discount must not exceed service_amount (Anexo I E0427)': 'mais unconditional_discount não pode passar de service_amount (Anexo I E0427)',
  'are not allowed unless the service is taxable (Anexo I E0435)': 'não são permitidas, salvo se o serviço é tributável (Anexo I E0435)',
  'are not allowed for a MEI provider (Anexo I E0436)': 'não são permitidas para um prestador MEI (Anexo I E0436)',
  'are not allowed with a special tax regime (Anexo I E0438)': 'não são permitidas com regime especial de tributação (Anexo I E0438)',
  'must be nao_retido: the service is {}, so no ISSQN is withheld (Anexo I E0580)': 'deve ser nao_retido: o serviço é {}, então não há ISSQN retido (Anexo I E0580)',
  'must be nao_retido: no ISSQN is withheld from a MEI provider (Anexo I E0583)': 'deve ser nao_retido: não se retém ISSQN de um prestador MEI (Anexo I E0583)',
  'must be nao_retido: no ISSQN is withheld from a provider with a special tax regime (Anexo I E0588)': 'deve ser nao_retido: não se retém ISSQN de um prestador com regime especial de tributação (Anexo I E0588)',
  'must be nao_retido for national code 220101, highway operation (Anexo I E0596)': 'deve ser nao_retido para o código nacional 220101, exploração de rodovia (Anexo I E0596)',
  'must be tributavel: the issuer has a special tax regime (Anexo I E0172)': 'deve ser tributavel: o emitente tem regime especial de tributação (Anexo I E0172)',
  'is required with taxation imunidade: 0 to 5 (TSTipoImunidadeISSQN, Anexo I E0592)': 'é obrigatório com taxation imunidade: de 0 a 5 (TSTipoImunidadeISSQN, Anexo I E0592)',
  'is only for taxation imunidade (Anexo I E0592)': 'só vale com taxation imunidade (Anexo I E0592)',
  'is only allowed with taxation tributavel (Anexo I E0585)': 'só é permitido com taxation tributavel (Anexo I E0585)',
  'must be decisao_judicial or processo_administrativo': 'deve ser decisao_judicial ou processo_administrativo',
  'must be nao_incidencia for national code 990101 (Anexo I E0532)': 'deve ser nao_incidencia para o código nacional 990101 (Anexo I E0532)',
  'tomador needs a taker identified by cpf or cnpj with an address in Brazil (Anexo I E0204, E0237)': 'tomador exige um tomador identificado por cpf ou cnpj com endereço no Brasil (Anexo I E0204, E0237)',
  'intermediario needs an intermediary identified by cpf or cnpj with an address in Brazil (Anexo I E0264, E0293)': 'intermediario exige um intermediário identificado por cpf ou cnpj com endereço no Brasil (Anexo I E0264, E0293)',
  'must not be after the emission date {} (Anexo I E0015)': 'não pode ser posterior à data de emissão {} (Anexo I E0015)',
  'is required with reason_code 99 (Anexo I E0078)': 'é obrigatório com reason_code 99 (Anexo I E0078)',
  // validate-nfse-tot-trib.ts
  'give either the three amounts (federal, state, municipal) or the three rates (federal_rate, state_rate, municipal_rate)':
    'informe os três valores (federal, state, municipal) ou os três percentuais (federal_rate, state_rate, municipal_rate)',
  'must not exceed service_amount (Anexo I {})': 'não pode passar de service_amount (Anexo I {})',
  'must be at most 100 (Anexo I {})': 'deve ser no máximo 100 (Anexo I {})',
  'give either approximate_taxes or simples_nacional_rate, not both': 'informe approximate_taxes ou simples_nacional_rate, não os dois',
  'must be absent for a MEI provider (Anexo I E0710)': 'deve ficar de fora para um prestador MEI (Anexo I E0710)',
  'must be absent for a provider outside the Simples Nacional: give approximate_taxes (Anexo I E0713)': 'deve ficar de fora para um prestador fora do Simples Nacional: informe approximate_taxes (Anexo I E0713)',
  'is required for an ME/EPP provider, or give approximate_taxes: Sefin refuses a DPS without the approximate taxes (indTotTrib) from an ME/EPP (Anexo I E0712)':
    'é obrigatório para um prestador ME/EPP, ou informe approximate_taxes: a Sefin recusa uma DPS de ME/EPP sem os tributos aproximados (indTotTrib) (Anexo I E0712)',
  'is required for a provider outside the Simples Nacional: Sefin refuses a DPS without the approximate taxes (indTotTrib) from it (Anexo I E0713)':
    'é obrigatório para um prestador fora do Simples Nacional: a Sefin recusa uma DPS dele sem os tributos aproximados (indTotTrib) (Anexo I E0713)',
  // validate-nfse.ts: codes and groups
  'are not allowed for a Simples Nacional ME/EPP paying ISSQN through the SN, but for sub-items 06.01, 06.02, 07.02 and 07.05 (Anexo I E0441, E0442)':
    'não são permitidas para um ME/EPP do Simples Nacional que recolhe o ISSQN pelo SN, exceto nos subitens 06.01, 06.02, 07.02 e 07.05 (Anexo I E0441, E0442)',
  'bring the ISSQN below 2 % of service_amount minus unconditional_discount at rate {} (Anexo I {}; only sub-items 7.02, 7.05 and 16.01 may go below)':
    'levam o ISSQN abaixo de 2 % de service_amount menos unconditional_discount à alíquota {} (Anexo I {}; só os subitens 7.02, 7.05 e 16.01 podem ficar abaixo)',
  'IBS/CBS is accepted only for a competence from 2026-01-01 (Anexo I E0850)': 'o IBS/CBS só é aceito para competência a partir de 01/01/2026 (Anexo I E0850)',
  'is a construction work code (LC 116 7.02, 7.04-7.08, 7.17, 7.19), whose DPS needs the obra group, not offered yet (Anexo I E0370)':
    'é um código de obra de construção (LC 116 7.02, 7.04-7.08, 7.17, 7.19), cuja DPS exige o grupo obra, ainda não oferecido (Anexo I E0370)',
  'is an operation with real estate (020101, 020201, 020301), whose DPS needs the imovel group, not offered yet (Anexo I E0932)':
    'é uma operação com imóvel (020101, 020201, 020301), cuja DPS exige o grupo imovel, ainda não oferecido (Anexo I E0932)',
  'is not a classification of the NFS-e in force on {} in the cClassTrib table (Anexo I E0958)': 'não é uma classificação da NFS-e vigente em {} na tabela de cClassTrib (Anexo I E0958)',
  'is not an operation indicator of Anexo C (IndOp table; e.g. 100301 other onerous services) (Anexo I E0901)':
    'não é um indicador de operação do Anexo C (tabela IndOp; ex.: 100301 demais serviços onerosos) (Anexo I E0901)',
  'is not offered yet for LC 116 items 25.05, 15.09, 17.12 and 10.05 (they need tpOper, Anexo I E0903); leave reform out (IBS/CBS may be left out in 2026, FACTS 16.3)':
    'ainda não é oferecido para os itens 25.05, 15.09, 17.12 e 10.05 da LC 116 (eles exigem tpOper, Anexo I E0903); deixe reform de fora (o IBS/CBS pode ficar de fora em 2026, FACTS 16.3)',
  'is of LC 116 item 12 (cultural, sports and leisure events), whose DPS needs the atvEvento group, not offered yet (Anexo I E0390)':
    'é do item 12 da LC 116 (eventos culturais, esportivos e de lazer), cuja DPS exige o grupo atvEvento, ainda não oferecido (Anexo I E0390)',
  "is only accepted when the account's tax regime is reform_2026": 'só é aceito quando o regime tributário da conta é reform_2026',
  'must be 3 digits (TSCodTribMun)': 'deve ter 3 dígitos (TSCodTribMun)',
  'must be 30 digits (TSNumProcExigSuspensa)': 'deve ter 30 dígitos (TSNumProcExigSuspensa)',
  'must be 6 digits (TSCodTribNac: LC 116 item, sub-item and detail, e.g. 010101)': 'deve ter 6 dígitos (TSCodTribNac: item, subitem e desdobramento da LC 116, ex.: 010101)',
  'must be an ISO alpha-2 country code other than BR': 'deve ser um código de país ISO alfa-2 diferente de BR',
  'must be an ISO alpha-2 country code other than BR (use city_code in Brazil)': 'deve ser um código de país ISO alfa-2 diferente de BR (no Brasil use city_code)',
  'must be the 7-digit IBGE municipality code': 'deve ser o código IBGE do município, de 7 dígitos',
  'must be the 9-digit NBS code (TSCodNBS)': 'deve ser o código NBS de 9 dígitos (TSCodNBS)',
  "must be the replaced NFS-e's {}: a substitute keeps it (Anexo I {})": 'deve ser o {} da NFS-e substituída: a substituta o mantém (Anexo I {})',
  'must begin with its CST {}: the first 3 digits of cClassTrib are the CST it belongs to (Anexo I E0959)': 'deve começar pelo seu CST {}: os 3 primeiros dígitos do cClassTrib são o CST a que ele pertence (Anexo I E0959)',
  'needs the regular-taxation group (gTribRegular), not offered yet (Anexo I E0965)': 'exige o grupo de tributação regular (gTribRegular), ainda não oferecido (Anexo I E0965)',
  'is of CST {}, which needs the deferral group (gDif), not offered yet (Anexo I E0972)': 'é de CST {}, que exige o grupo de diferimento (gDif), ainda não oferecido (Anexo I E0972)',
  // validate-nfse-federal.ts
  'CST 04 and 06 need pis_rate and cofins_rate 0 (Anexo I E0688)': 'os CST 04 e 06 exigem pis_rate e cofins_rate 0 (Anexo I E0688)',
  'is required when pis_cofins.withheld is {} (Anexo I E0724)': 'é obrigatório quando pis_cofins.withheld é {} (Anexo I E0724)',
  'is required with a CST other than 00, 08, 09 (Anexo I E0684)': 'é obrigatório com um CST diferente de 00, 08, 09 (Anexo I E0684)',
  'is required with a CST other than 00, 08, 09 (Anexo I E0690)': 'é obrigatório com um CST diferente de 00, 08, 09 (Anexo I E0690)',
  'is required with a CST other than 00, 08, 09: 0 to 9 per TSTipoRetPISCofins (Anexo I E0698)': 'é obrigatório com um CST diferente de 00, 08, 09: de 0 a 9 conforme TSTipoRetPISCofins (Anexo I E0698)',
  'must be 0 to 9 (TSTipoRetPISCofins)': 'deve ser de 0 a 9 (TSTipoRetPISCofins)',
  'must be absent for a MEI provider (Anexo I E0676)': 'deve ficar de fora para um prestador MEI (Anexo I E0676)',
  'must be absent when pis_cofins.withheld is 0 (Anexo I E0720)': 'deve ficar de fora quando pis_cofins.withheld é 0 (Anexo I E0720)',
  'must be absent when the provider is a person (CPF) (Anexo I E0675)': 'deve ficar de fora quando o prestador é pessoa física (CPF) (Anexo I E0675)',
  'must be absent with CST 00, 08 or 09 (Anexo I E0682)': 'deve ficar de fora com CST 00, 08 ou 09 (Anexo I E0682)',
  'must be at most service_amount (Anexo I E0677)': 'deve ser no máximo service_amount (Anexo I E0677)',
  'must be base x cofins_rate = {} (Anexo I E0696); or leave it out to have it computed': 'deve ser base x cofins_rate = {} (Anexo I E0696); ou deixe-o de fora para que seja calculado',
  'must be base x pis_rate = {} (Anexo I E0694); or leave it out to have it computed': 'deve ser base x pis_rate = {} (Anexo I E0694); ou deixe-o de fora para que seja calculado',
  'must be greater than zero (Anexo I E0680)': 'deve ser maior que zero (Anexo I E0680)',
  'must be less than service_amount (Anexo I {})': 'deve ser menor que service_amount (Anexo I {})',
  'must be one of the CSTs of TSTipoCST: {}': 'deve ser um dos CST de TSTipoCST: {}',
  // validate-nfse-foreign-trade.ts
  'is not given when temporary_goods is nao (Anexo I E0354)': 'não é informado quando temporary_goods é nao (Anexo I E0354)',
  'is required in an export of services (a taker or intermediary abroad, a service provided abroad or taxation exportacao): give how the service was provided, the currency and value abroad and the support mechanisms (Anexo I E0330)':
    'é obrigatório numa exportação de serviços (tomador ou intermediário no exterior, serviço prestado no exterior ou taxation exportacao): informe o modo de prestação, a moeda e o valor no exterior e os mecanismos de apoio (Anexo I E0330)',
  'is required with temporary_goods declaracao_exportacao (Anexo I E0356)': 'é obrigatório com temporary_goods declaracao_exportacao (Anexo I E0356)',
  'is required with temporary_goods declaracao_importacao (Anexo I E0352)': 'é obrigatório com temporary_goods declaracao_importacao (Anexo I E0352)',
  'must be 01 to 08 (TSMecAFComExPrest; 00 is refused, Anexo I E0341)': 'deve ser de 01 a 08 (TSMecAFComExPrest; 00 é recusado, Anexo I E0341)',
  'must be 01 to 26 (TSMecAFComExToma; 00 is refused, Anexo I E0343)': 'deve ser de 01 a 26 (TSMecAFComExToma; 00 é recusado, Anexo I E0343)',
  'must be the 3-digit currency code of the Banco Central table (TSCodMoeda), e.g. 220': 'deve ser o código de moeda de 3 dígitos da tabela do Banco Central (TSCodMoeda), ex.: 220',
  // prepare-nfse.ts, nfse-rejection.ts
  'discounts, deductions and the taxes withheld (CP, IRRF, CSLL, and PIS, COFINS, ISSQN when withheld) add up to more than service_amount (Anexo I E0428)':
    'descontos, deduções e os tributos retidos (CP, IRRF, CSLL, e PIS, COFINS, ISSQN quando retidos) somam mais que service_amount (Anexo I E0428)',
  // validate-nfse-federal.ts (PIS/COFINS end with 2026)
  'must be 00, 08 or 09 for a competence in {}: PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b, EC 132/2023; LC 214/2025 art. 542 revokes their laws from 1 January 2027); or leave pis_cofins out':
    'deve ser 00, 08 ou 09 para uma competência em {}: o PIS/PASEP e a COFINS acabam em 2026 (ADCT art. 126, II, b, EC 132/2023; a LC 214/2025, art. 542, revoga suas leis a partir de 1º de janeiro de 2027); ou deixe pis_cofins de fora',
  'must be 0, 2 or 8 for a competence in {}: PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b, EC 132/2023; LC 214/2025 art. 542), so neither is withheld; 8 withholds the CSLL alone':
    'deve ser 0, 2 ou 8 para uma competência em {}: o PIS/PASEP e a COFINS acabam em 2026 (ADCT art. 126, II, b, EC 132/2023; LC 214/2025, art. 542), então nenhum dos dois é retido; 8 retém só a CSLL',
};
