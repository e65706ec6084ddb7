import type { Translations } from './template-catalog.js';

// The request validators' sentences in Brazilian Portuguese, keyed by the English template they write
// (`{}` per interpolated value; test/support/domain-messages.ts reads them from the source): the
// shared field checks (fiscal/layout) and the goods sale of models 55 and 65 (documents/goods/domain).

export const FIELD_RULES_PT_BR: Translations = {
  'is required': 'é obrigatório',
  'must be a string': 'deve ser um texto',
  'contains characters the fiscal layout cannot carry ({}); use Latin letters, digits and common punctuation':
    'contém caracteres que o leiaute fiscal não aceita ({}); use letras latinas, dígitos e pontuação comum',
  'must not be empty': 'não pode estar vazio',
  'must have at least {} characters': 'deve ter no mínimo {} caracteres',
  'must have at most {} characters (has {})': 'deve ter no máximo {} caracteres (tem {})',
  'must be a number': 'deve ser um número',
  'must be greater than zero': 'deve ser maior que zero',
  'must not be negative': 'não pode ser negativo',
  'must have at most {} decimal places': 'deve ter no máximo {} casas decimais',
  'must be at most {}': 'deve ser no máximo {}',
  'must be a date YYYY-MM-DD': 'deve ser uma data AAAA-MM-DD',
  'must be 6 to 14 digits': 'deve ter de 6 a 14 dígitos',
  'must be 8 digits': 'deve ter 8 dígitos',
};

export const GOODS_PT_BR: Translations = {
  // fcp-rates.ts, message-size.ts, parties.ts
  'must be greater than 0; leave it out when the item is not subject to the poverty fund (FCP)':
    'deve ser maior que 0; deixe-o de fora quando o item não está sujeito ao Fundo de Combate à Pobreza (FCP)',
  'must be greater than 0; leave it out when the item is not subject to the poverty fund on ST (FCP ST)':
    'deve ser maior que 0; deixe-o de fora quando o item não está sujeito ao Fundo de Combate à Pobreza na ST (FCP ST)',
  'make a note of about {} KB, above the 500 KB the authority accepts (MOC B01, 214): split the sale into several notes or shorten the item texts':
    'formam uma nota de cerca de {} KB, acima dos 500 KB que a SEFAZ aceita (MOC B01, 214): divida a venda em várias notas ou encurte os textos dos itens',
  'is required for an issuer in {} (infRespTec, MOC ZD01-10; the state rejects the note with 972): set the software house with PUT /v1/account/technical-responsible, or PUT /v1/issuers/{id}/technical-responsible for this issuer':
    'é obrigatório para um emitente de {} (infRespTec, MOC ZD01-10; o estado rejeita a nota com 972): informe a software house com PUT /v1/account/technical-responsible, ou PUT /v1/issuers/{id}/technical-responsible para este emitente',
  // validate-fuel.ts (docs/fiscal/fuel.md)
  'is only for a fuel sale to a final consumer in an NF-e, CFOP 5656 or 5667 (MOC LA11-20, 379)':
    'só cabe na NF-e em venda de combustível a consumidor final, CFOP 5656 ou 5667 (MOC LA11-20, 379)',
  'is required for GLP in an NF-e (vPart, MOC LA03d-10, 856)': 'é obrigatório para GLP na NF-e (vPart, MOC LA03d-10, 856)',
  'is required for this ANP code: the list the gateway holds has no description for it (descANP)':
    'é obrigatório para este código ANP: a lista que o gateway mantém não tem a descrição dele (descANP)',
  'must be a two-letter Brazilian state, or EX for consumption abroad (UFCons)': 'deve ser a sigla de uma UF brasileira, ou EX para consumo no exterior (UFCons)',
  'must be base_quantity x rate_per_unit rounded to cents ({}), or be left out': 'deve ser base_quantity x rate_per_unit arredondado em centavos ({}), ou ficar de fora',
  'must be greater than start: the totalizer only goes up; when it rolls over, end this item at the last reading and start a new item from zero (MOC LA16-10, 380)':
    'deve ser maior que start: o encerrante só aumenta; quando ele zerar, encerre este item na última leitura e comece um novo item a partir de zero (MOC LA16-10, 380)',
  'must be greater than zero; leave it out for a product without biodiesel': 'deve ser maior que zero; deixe-o de fora para um produto sem biodiesel',
  'must be kg for GLP (ANP code 210203001): the taxable unit of GLP is the kilogram (MOC I13-20, 854)':
    'deve ser kg para GLP (código ANP 210203001): a unidade tributável do GLP é o quilograma (MOC I13-20, 854)',
  'must be the 9-digit ANP product code (cProdANP)': 'deve ser o código de produto da ANP com 9 dígitos (cProdANP)',
  'the GLP and natural gas shares (pGLP, pGNn, pGNi) are only for GLP, ANP code 210203001 (MOC LA03c-10, 461)':
    'os percentuais de GLP e de gás natural (pGLP, pGNn, pGNi) são só para GLP, código ANP 210203001 (MOC LA03c-10, 461)',
  'with natural_gas_national_percent and natural_gas_imported_percent must add up to 100 for GLP (MOC LA03c-20, 855)':
    'somado a natural_gas_national_percent e natural_gas_imported_percent deve dar 100 para GLP (MOC LA03c-20, 855)',
  // validate-medicine.ts (docs/fiscal/medicines.md)
  'must be the ANVISA registration, 11 or 13 digits, or ISENTO for a medicine exempt from registration (cProdANVISA)':
    'deve ser o registro na ANVISA, com 11 ou 13 dígitos, ou ISENTO para medicamento isento de registro (cProdANVISA)',
  'cannot go with fuel on the same item: the layout gives an item either the medicine group (med) or the fuel group (comb)':
    'não pode vir com fuel no mesmo item: o leiaute dá ao item ou o grupo de medicamento (med) ou o de combustível (comb)',
  'is required with medicine in an NF-e: give at least one batch of the medicine sold (rastro, MOC K01-20, 873)':
    'é obrigatório com medicine na NF-e: informe ao menos um lote do medicamento vendido (rastro, MOC K01-20, 873)',
  'must have at most {} batches (rastro)': 'deve ter no máximo {} lotes (rastro)',
  'must be a date YYYY-MM-DD from 2000-01-01 to 2099-12-31 (the layout type TData)':
    'deve ser uma data AAAA-MM-DD de 2000-01-01 a 2099-12-31 (o tipo TData do leiaute)',
  'must not be before manufactured_on (MOC I84-10, 870)': 'não pode ser anterior a manufactured_on (MOC I84-10, 870)',
  'must not be after {}, the day the authority processes the note (MOC I83-10, 877)':
    'não pode ser posterior a {}, o dia em que a SEFAZ processa a nota (MOC I83-10, 877)',
  // transport.ts
  'give cnpj or cpf, not both': 'informe cnpj ou cpf, não os dois',
  'is not a valid CNPJ (14 characters, check digits must match)': 'não é um CNPJ válido (14 caracteres, os dígitos verificadores devem conferir)',
  'is not a valid CPF (11 digits, check digits must match)': 'não é um CPF válido (11 dígitos, os dígitos verificadores devem conferir)',
  'must be a two-letter Brazilian state': 'deve ser a sigla de uma UF brasileira (duas letras)',
  "is not a valid {} state registration (check digits; MOC X07-20, 544): give the carrier's IE as registered, or ISENTO":
    'não é uma inscrição estadual válida de {} (dígitos verificadores; MOC X07-20, 544): informe a IE da transportadora como cadastrada, ou ISENTO',
  "is required when the carrier's ie is given (MOC X07-10, 559)": 'é obrigatório quando a IE da transportadora é informada (MOC X07-10, 559)',
  'must be one of {}': 'deve ser um de {}',
  'must be 2-14 digits or ISENTO': 'deve ter de 2 a 14 dígitos ou ser ISENTO',
  // validate-item.ts
  'must be 3 digits': 'deve ter 3 dígitos',
  'must be 6 digits (cClassTrib)': 'deve ter 6 dígitos (cClassTrib)',
  'must be 6 digits (cClassTribIS)': 'deve ter 6 dígitos (cClassTribIS)',
  'must be a 4-digit CFOP starting with 5: an NFC-e is an in-state sale to a consumer (e.g. 5102, or 5405 for goods under ST)':
    'deve ser um CFOP de 4 dígitos começando por 5: a NFC-e é uma venda a consumidor dentro do estado (ex.: 5102, ou 5405 para mercadoria com ST)',
  'must be the 7-digit CEST code': 'deve ser o código CEST de 7 dígitos',
  'must be the tax-benefit code of the state table: 8 or 10 characters without blanks, or "SEM CBENEF"':
    'deve ser o código de benefício fiscal da tabela da UF: 8 ou 10 caracteres sem espaços, ou "SEM CBENEF"',
  'must be the 8-digit NCM code of the product (digits only)': 'deve ser o código NCM de 8 dígitos do produto (só dígitos)',
  '5933 (service taxed by ISSQN) needs the ISSQN group, which this API does not write (MOC I08-160, 374)':
    '5933 (serviço tributado pelo ISSQN) exige o grupo do ISSQN, que esta API não escreve (MOC I08-160, 374)',
  '{} is not a CFOP an NFC-e accepts (MOC I08-150, 725): use one of {}': '{} não é um CFOP aceito na NFC-e (MOC I08-150, 725): use um de {}',
  'differs from cst_icms; send only one of them': 'difere de cst_icms; envie só um dos dois',
  'is required: the CSOSN of the item (e.g. 102)': 'é obrigatório: o CSOSN do item (ex.: 102)',
  'is required: the ICMS CST of the item (e.g. 00)': 'é obrigatório: o CST do ICMS do item (ex.: 00)',
  '{} is a CST for regime-normal issuers, but this issuer is in the Simples Nacional (CRT {}) and must send a CSOSN: {}':
    '{} é um CST de emitentes do regime normal, mas este emitente está no Simples Nacional (CRT {}) e deve enviar um CSOSN: {}',
  '{} is not a CSOSN {} accepts; use one of {}': '{} não é um CSOSN que {} aceita; use um de {}',
  'CST {} (suspension) is not allowed in an NFC-e (authority rejection {}); issue an NF-e (model 55) for this operation':
    'o CST {} (suspensão) não é permitido na NFC-e (rejeição {} da SEFAZ); emita uma NF-e (modelo 55) para esta operação',
  'CST {} (deferral) is not allowed in an NFC-e (authority rejection {}); issue an NF-e (model 55) for this operation':
    'o CST {} (diferimento) não é permitido na NFC-e (rejeição {} da SEFAZ); emita uma NF-e (modelo 55) para esta operação',
  '{} is a CSOSN for Simples Nacional issuers, but this issuer is in the regime normal (CRT 3) and must send a CST: {}':
    '{} é um CSOSN de emitentes do Simples Nacional, mas este emitente está no regime normal (CRT 3) e deve enviar um CST: {}',
  '{} is not an ICMS CST {} accepts; use one of {}': '{} não é um CST do ICMS que {} aceita; use um de {}',
  "is required with CSOSN {}: the ICMS rate of your own operation (your state's internal rate, or the interstate rate 4, 7 or 12 for a sale to another state); the ST charged is the destination rate on the ST base minus this ICMS":
    'é obrigatório com o CSOSN {}: a alíquota do ICMS da operação própria (a alíquota interna do seu estado, ou a interestadual de 4, 7 ou 12 numa venda para outro estado); a ST cobrada é a alíquota de destino sobre a base da ST menos este ICMS',
  'is not used with code {}: the item has no own ICMS': 'não é usado com o código {}: o item não tem ICMS próprio',
  'is only used with CST 20, 70, 90 or CSOSN 900, not {}': 'só é usado com CST 20, 70, 90 ou CSOSN 900, não {}',
  'is only used with CST 00, 10, 20, 70 or 90 with pICMS, not {}': 'só é usado com CST 00, 10, 20, 70 ou 90 com pICMS, não {}',
  'is required for code {} (ICMS tax substitution): give at least st.rate': 'é obrigatório para o código {} (substituição tributária do ICMS): informe ao menos st.rate',
  'is only used with CST 10, 30, 70, 90 or CSOSN 201, 202, 203, 900, not {}': 'só é usado com CST 10, 30, 70, 90 ou CSOSN 201, 202, 203, 900, não {}',
  'must be an integer from 0 to 6 (modBCST)': 'deve ser um inteiro de 0 a 6 (modBCST)',
  'is only used with CST 60 or CSOSN 500, not {}': 'só é usado com CST 60 ou CSOSN 500, não {}',
  // items[].icms_mono (documents/goods/domain/icms-mono-item.ts)
  'is only used with the monophase CSTs 02, 15, 53 or 61, not {}': 'só é usado com os CSTs monofásicos 02, 15, 53 ou 61, não {}',
  'is required with CST {} (monophase ICMS on fuels): give the ANP product code of the fuel':
    'é obrigatório com o CST {} (ICMS monofásico sobre combustíveis): informe o código de produto ANP do combustível',
  'is required with CST {}: give at least icms_mono.ad_rem_rate (the ad rem rate of the date)':
    'é obrigatório com o CST {}: informe ao menos icms_mono.ad_rem_rate (a alíquota ad rem da data)',
  'is required with CST 15: give retention.ad_rem_rate (adRemICMSReten)': 'é obrigatório com o CST 15: informe retention.ad_rem_rate (adRemICMSReten)',
  'is only used with CST 15, not {}': 'só é usado com o CST 15, não {}',
  'is only used with CST 53, not {}': 'só é usado com o CST 53, não {}',
  'is only used with CSOSN 101, 201 or 900, not {}': 'só é usado com CSOSN 101, 201 ou 900, não {}',
  'is not used with CST {} (immunity and non-incidence: the item carries CST and cClassTrib only, no gIBSCBS)':
    'não é usado com o CST {} (imunidade e não incidência: o item leva só CST e cClassTrib, sem gIBSCBS)',
  'must be one of 01, 02, 04-09, 49-56, 60-67, 70-75, 98, 99 (CST 03, per-quantity rate, is not supported)':
    'deve ser um de 01, 02, 04-09, 49-56, 60-67, 70-75, 98, 99 (o CST 03, alíquota por quantidade, não é suportado)',
  'is not used with CST {} (not taxed)': 'não é usado com o CST {} (não tributado)',
  'must be the 8-digit NCM code of the product: 00 is only for a service item or an adjustment note (MOC I05-24, 471)':
    'deve ser o código NCM de 8 dígitos do produto: 00 só vale para item de serviço ou nota de ajuste (MOC I05-24, 471)',
  'must be the full NCM, 8 digits (MOC I05-10, 777)': 'deve ser o NCM completo, com 8 dígitos (MOC I05-10, 777)',
  'is empty: give the GTIN, or "SEM GTIN" for a product without one (MOC I03-30, 883)': 'está vazio: informe o GTIN, ou "SEM GTIN" para um produto sem código de barras (MOC I03-30, 883)',
  'must be a GTIN-8, 12, 13 or 14 with a valid check digit, or "SEM GTIN" (the check digit is wrong: MOC I03-10, 611)':
    'deve ser um GTIN-8, 12, 13 ou 14 com dígito verificador válido, ou "SEM GTIN" (o dígito verificador está errado: MOC I03-10, 611)',
  'must be a GTIN-8, 12, 13 or 14 with a valid check digit, or "SEM GTIN"': 'deve ser um GTIN-8, 12, 13 ou 14 com dígito verificador válido, ou "SEM GTIN"',
  'must be an integer from 0 to 8': 'deve ser um inteiro de 0 a 8',
  'quantity x unit_price rounds to R$ 0.00; the item value must be at least R$ 0.01': 'quantity x unit_price arredonda para R$ 0.00; o valor do item deve ser de pelo menos R$ 0.01',
  'is larger than the item value (quantity x unit_price) (MOC I17-10, 483)': 'é maior que o valor do item (quantity x unit_price) (MOC I17-10, 483)',
  // validate-payment.ts
  'must be 0 for sem_pagamento': 'deve ser 0 em sem_pagamento',
  'is only used with card payments, not {}': 'só é usado em pagamentos com cartão, não {}',
  'is not a valid CNPJ (MOC YA05-20, 437)': 'não é um CNPJ válido (MOC YA05-20, 437)',
  'is only used with method outros': 'só é usado com o método outros',
  'is required for an integrated (TEF) payment: the CNPJ of the payment institution (MOC YA05-10, 392)':
    'é obrigatório num pagamento integrado (TEF): o CNPJ da instituição de pagamento (MOC YA05-10, 392)',
  'is required for an integrated (TEF) card payment': 'é obrigatório num pagamento com cartão integrado (TEF)',
  'is required for an integrated (TEF) payment: the authorization code (MOC YA05-10, 392)': 'é obrigatório num pagamento integrado (TEF): o código de autorização (MOC YA05-10, 392)',
  // reform-class-checks.ts, validate-reform-rules.ts (IBS/CBS, NT 2025.002-RTC)
  '{} belongs to CST {}, not {} (NT 2025.002-RTC UB14-20, cStat 1024)': '{} pertence ao CST {}, não ao {} (NT 2025.002-RTC UB14-20, cStat 1024)',
  '{} is not a cClassTrib of the classification table (NT 2025.002-RTC UB14-10, cStat 1023)': '{} não é um cClassTrib da tabela de classificação (NT 2025.002-RTC UB14-10, cStat 1023)',
  '{} is not a CST of the IBS/CBS table (NT 2025.002-RTC UB13-10, cStat 1020)': '{} não é um CST da tabela do IBS/CBS (NT 2025.002-RTC UB13-10, cStat 1020)',
  '{} is not in force on {} ({}; NT 2025.002-RTC UB14-10, cStat 1023)': '{} não está vigente em {} ({}; NT 2025.002-RTC UB14-10, cStat 1023)',
  '{} may not be used in {}: the cClassTrib table marks it for {} only': '{} não pode ser usado neste documento ({}): a tabela de cClassTrib o reserva só para {}',
  'is not used with CST {}: only a CST whose codes carry a rate reduction (gRed) takes one, e.g. 200': 'não é usado com o CST {}: só um CST cujos códigos levam redução de alíquota (gRed) a aceita, ex.: 200',
  'must be {} for cClassTrib {} (its pRedIBS / pRedCBS in the classification table); leave it out to get it': 'deve ser {} para o cClassTrib {} (o seu pRedIBS / pRedCBS na tabela de classificação); deixe-o de fora para recebê-lo',
  '{} belongs to CST {}, not {} (NT 2025.002 UB14-20, cStat 1024)': '{} pertence ao CST {}, não ao {} (NT 2025.002 UB14-20, cStat 1024)',
  '{} is not a cClassTrib in force on {} (NT 2025.002 UB14-10, cStat 1023)': '{} não é um cClassTrib vigente em {} (NT 2025.002 UB14-10, cStat 1023)',
  '{} is not allowed in an NF-e (NT 2025.002 UB14-25, cStat 1025)': '{} não é permitido na NF-e (NT 2025.002 UB14-25, cStat 1025)',
  '{} is not allowed in an NFC-e (NT 2025.002 UB14-25, cStat 1025)': '{} não é permitido na NFC-e (NT 2025.002 UB14-25, cStat 1025)',
  '{} is not an IBS/CBS CST of the official table (NT 2025.002 UB13-10, cStat 1020)': '{} não é um CST de IBS/CBS da tabela oficial (NT 2025.002 UB13-10, cStat 1020)',
  'CST {} requires the group {}, which this API does not write (NT 2025.002 {}, cStat {})': 'o CST {} exige o grupo {}, que esta API não escreve (NT 2025.002 {}, cStat {})',
  'is not used with CST {}: its indicator ind_gRed forbids gRed (NT 2025.002 UB26-10, cStat 1032)': 'não é usado com o CST {}: o seu indicador ind_gRed proíbe gRed (NT 2025.002 UB26-10, cStat 1032)',
  'must be the reduction of cClassTrib {}: {} (NT 2025.002 UB27-10, cStat 1034; UB65-10, 1063)': 'deve ser a redução do cClassTrib {}: {} (NT 2025.002 UB27-10, cStat 1034; UB65-10, 1063)',
  // pis-cofins-schedule.ts
  'is not accepted on a note dated {}: PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b, EC 132/2023; LC 214/2025 art. 542 revokes their laws from 1 January 2027); leave it out: the NF-e carries CST 08 (no incidence) in both groups':
    'não é aceito em uma nota com data de {}: o PIS/PASEP e a COFINS acabam em 2026 (ADCT art. 126, II, b, EC 132/2023; a LC 214/2025, art. 542, revoga suas leis a partir de 1º de janeiro de 2027); deixe-o de fora: a NF-e leva o CST 08 (sem incidência) nos dois grupos',
  'is not accepted on a note dated {}: PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b, EC 132/2023; LC 214/2025 art. 542 revokes their laws from 1 January 2027); leave it out: the NFC-e carries neither group':
    'não é aceito em uma nota com data de {}: o PIS/PASEP e a COFINS acabam em 2026 (ADCT art. 126, II, b, EC 132/2023; a LC 214/2025, art. 542, revoga suas leis a partir de 1º de janeiro de 2027); deixe-o de fora: a NFC-e não leva nenhum dos dois grupos',
};

/** Words the validators put into their sentences as values (ItemRules.document). */
export const VALUES_PT_BR: Translations = {
  'an NFC-e': 'a NFC-e',
  'an NF-e': 'a NF-e',
  'other documents': 'outros documentos',
  // The groups a reform class needs that the gateway does not write (reform-class-checks.ts).
  'monophase (gIBSCBSMono)': 'monofásico (gIBSCBSMono)',
  'ZFM presumed credit (gCredPresIBSZFM)': 'crédito presumido da ZFM (gCredPresIBSZFM)',
  'competence adjustment (gAjusteCompet)': 'ajuste de competência (gAjusteCompet)',
  // Why the CBS rate must be sent (reform-rate-checks.ts).
  'the CBS rate of 2027 and 2028 is the reference rate of the Senate resolution minus 0.1 percentage point (LC 214/2025 art. 347), which this gateway does not have yet':
    'a alíquota da CBS de 2027 e 2028 é a alíquota de referência da resolução do Senado menos 0,1 ponto percentual (LC 214/2025, art. 347), que este gateway ainda não tem',
  // The credit and debit note types not issued yet (validate-nfe-adjustment.ts).
  'is not a type of the layout': 'não é um tipo do leiaute',
  'must reference a debit note of type 04 (multa e juros), which needs item references (DFeReferenciado) the gateway does not write':
    'deve referenciar uma nota de débito do tipo 04 (multa e juros), que exige referências por item (DFeReferenciado) que o gateway não escreve',
  'binds cClassTrib 810001 and gCredPresIBSZFM, and is refused before 2029 (NT 2025.002 B25.2-30)':
    'exige o cClassTrib 810001 e o gCredPresIBSZFM, e é recusado antes de 2029 (NT 2025.002 B25.2-30)',
  'binds cClassTrib 800001 (CST 800, gTransfCred), which UB106-30 accepts on a debit note only':
    'exige o cClassTrib 800001 (CST 800, gTransfCred), que a UB106-30 só aceita numa nota de débito',
  'references the refused items one by one (DFeReferenciado, Ajuste SINIEF 8/26)': 'referencia os itens recusados um a um (DFeReferenciado, Ajuste SINIEF 8/26)',
  'binds cClassTrib 811001 and gAjusteCompet': 'exige o cClassTrib 811001 e o gAjusteCompet',
  'binds cClassTrib 811002 and gAjusteCompet, and references notes per item (VC02-10)': 'exige o cClassTrib 811002 e o gAjusteCompet, e referencia notas por item (VC02-10)',
  'references the original note per item (DFeReferenciado, VC02-10)': 'referencia a nota original por item (DFeReferenciado, VC02-10)',
  'binds cClassTrib 410030 and gEstornoCred': 'exige o cClassTrib 410030 e o gEstornoCred',
  'binds cClassTrib 811003 and gAjusteCompet': 'exige o cClassTrib 811003 e o gAjusteCompet',
  // The scope of a CFOP (validate-nfe-item.ts).
  'internal (same state: 1xxx/5xxx)': 'interna (mesmo estado: 1xxx/5xxx)',
  'interstate (2xxx/6xxx)': 'interestadual (2xxx/6xxx)',
  'abroad (3xxx/7xxx)': 'com o exterior (3xxx/7xxx)',
  // What an IPI CST says (validate-nfe-item.ts).
  exemption: 'isenção',
  immunity: 'imunidade',
  suspension: 'suspensão',
  // The law behind each rate period of the shipped reform tables (assets/fiscal/reform/rates.json).
  'LC 214/2025 art. 343 (IBS, alíquota estadual 0,1%; no municipal rate), art. 346 (CBS 0,9%), art. 348 III c (these rates do not apply to Simples Nacional taxpayers)':
    'LC 214/2025, art. 343 (IBS, alíquota estadual 0,1%; sem alíquota municipal), art. 346 (CBS 0,9%), art. 348, III, c (essas alíquotas não se aplicam aos optantes do Simples Nacional)',
  'LC 214/2025 art. 344 (IBS 0,05% estadual + 0,05% municipal, 2027 and 2028), art. 347 (CBS = reference rate of art. 14 I fixed by Senate resolution, art. 349 I and art. 353, reduced by 0,1 percentage point; fuels of arts. 172-180 excepted)':
    'LC 214/2025, art. 344 (IBS 0,05% estadual + 0,05% municipal, 2027 e 2028), art. 347 (CBS = alíquota de referência do art. 14, I, fixada por resolução do Senado, art. 349, I, e art. 353, reduzida em 0,1 ponto percentual; exceto os combustíveis dos arts. 172 a 180)',
  'LC 214/2025 art. 344 (IBS 0,05% + 0,05%), art. 347 (CBS = 2028 reference rate, art. 349 I and art. 354, reduced by 0,1 percentage point)':
    'LC 214/2025, art. 344 (IBS 0,05% + 0,05%), art. 347 (CBS = alíquota de referência de 2028, art. 349, I, e art. 354, reduzida em 0,1 ponto percentual)',
  'LC 214/2025 art. 349 I and II (reference rates of CBS and of state and municipal IBS, 2029-2033, fixed year by year by Senate resolution), arts. 355-365':
    'LC 214/2025, art. 349, I e II (alíquotas de referência da CBS e do IBS estadual e municipal, 2029 a 2033, fixadas ano a ano por resolução do Senado), arts. 355 a 365',
};
