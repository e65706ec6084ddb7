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
  // prepare-nfse.ts, nfse-rejection.ts
  'discounts, deductions and the taxes withheld (CP, IRRF, CSLL, and PIS, COFINS, ISSQN when withheld) add up to more than service_amount (Anexo I E0428)':
    'descontos, deduções e os tributos retidos (CP, IRRF, CSLL, e PIS, COFINS, ISSQN quando retidos) somam mais que service_amount (Anexo I E0428)',
};
