import type { Translations } from './template-catalog.js';

// The NF-e's operation checks in Brazilian Portuguese, keyed by the English template (see
// domain-goods-pt-br.ts): ICMS between states and by recipient, referenced documents, credit and
// debit notes of the reform, export. test/api-language-catalog.test.ts lists those still missing.

export const NFE_OPERATIONS_PT_BR: Translations = {
  // validate-cbenef.ts (docs/fiscal/cbenef.md)
  'is required: {} requires the tax-benefit code (cBenef) of its table with CST {} (MOC {}, {}; {})':
    'é obrigatório: {} exige o código de benefício fiscal (cBenef) da sua tabela com o CST {} (MOC {}, {}; {})',
  // reform-event-request.ts (docs/fiscal/reform-events.md)
  'applies only to a debit note of type 06, pagamento antecipado (NT 2025.002-RTC 8.18)':
    'aplica-se somente a uma nota de débito do tipo 06, pagamento antecipado (NT 2025.002-RTC 8.18)',
  'applies only to an import NF-e, inbound from abroad (NT 2025.002-RTC 8.15)':
    'aplica-se somente a uma NF-e de importação, de entrada vinda do exterior (NT 2025.002-RTC 8.15)',
  'applies only to an outbound NF-e (tpNF 1) (NT 2025.002-RTC 8.17)': 'aplica-se somente a uma NF-e de saída (tpNF 1) (NT 2025.002-RTC 8.17)',
  'is not an item of this NF-e': 'não é um item desta NF-e',
  'is required for the type delivery_forecast_update': 'é obrigatório para o tipo delivery_forecast_update',
  'is required for the type supplier_transport_loss': 'é obrigatório para o tipo supplier_transport_loss',
  'is required for this type': 'é obrigatório para este tipo',
  'is used only with the type delivery_forecast_update': 'é usado somente com o tipo delivery_forecast_update',
  'is used only with the type supplier_transport_loss': 'é usado somente com o tipo supplier_transport_loss',
  'is used only with the types import_not_exempted, supplier_transport_loss and prepaid_not_supplied':
    'é usado somente com os tipos import_not_exempted, supplier_transport_loss e prepaid_not_supplied',
  'must be a date AAAA-MM-DD': 'deve ser uma data AAAA-MM-DD',
  'must be a quantity of at least 0 with at most 4 decimals (TDec_1104)': 'deve ser uma quantidade de no mínimo 0 com no máximo 4 casas decimais (TDec_1104)',
  'must be an amount of at least 0 with at most 2 decimals (TDec_1302)': 'deve ser um valor de no mínimo 0 com no máximo 2 casas decimais (TDec_1302)',
  'must be an item number from 1 to 990': 'deve ser um número de item de 1 a 990',
  'must have 1 to 6 Latin-1 characters, no blank at either end': 'deve ter de 1 a 6 caracteres Latin-1, sem espaço em branco nas pontas',
  'must list 1 to 990 items': 'deve listar de 1 a 990 itens',
  'repeats an item already listed in this event': 'repete um item já listado neste evento',
  // delivery-event-request.ts (docs/fiscal/delivery-events.md)
  'is not used with type {}': 'não é usado com o tipo {}',
  'is required: the hash the event carries is computed from the captured image (NT 2021.001 P35, NT 2023.005 P36)':
    'é obrigatório: o hash que o evento leva é calculado a partir da imagem capturada (NT 2021.001 P35, NT 2023.005 P36)',
  'is required: the protocol of the event being cancelled': 'é obrigatório: o protocolo do evento que está sendo cancelado',
  'is written only with reason other (NT 2023.005 P33)': 'só é informado com o motivo other (outros) (NT 2023.005 P33)',
  'latitude and longitude go together': 'latitude e longitude vão juntas',
  'must be a date-time with its offset, e.g. 2026-06-10T17:45:00-03:00': 'deve ser uma data e hora com o fuso, ex.: 2026-06-10T17:45:00-03:00',
  'must be a whole number from 1 to 999': 'deve ser um número inteiro de 1 a 999',
  'must be between -180 and 180': 'deve estar entre -180 e 180',
  'must be between -90 and 90': 'deve estar entre -90 e 90',
  'must be the 15-digit protocol of the event being cancelled': 'deve ser o protocolo de 15 dígitos do evento que está sendo cancelado',
  'must be the image in standard Base64 (A-Z, a-z, 0-9, +, /, padded with =)': 'deve ser a imagem em Base64 padrão (A-Z, a-z, 0-9, +, /, completada com =)',
  'must have {} to {} characters (Latin-1), no blank at either end': 'deve ter de {} a {} caracteres (Latin-1), sem espaço no início nem no fim',
  'must have 1 to {} Base64 characters': 'deve ter de 1 a {} caracteres Base64',
  'must not be earlier than the issue of the NF-e (NT 2P30-10, 823)': 'não pode ser anterior à emissão da NF-e (NT 2P30-10, 823)',
  'must not be later than now, the time of the event (NT P30-10, 821)': 'não pode ser posterior a agora, a hora do evento (NT P30-10, 821)',
  // validate-icms-interstate.ts
  'is not used with icms_partilha: an item with the ICMS split (ICMSPart) carries no ICMSUFDest (MOC NA01); remove it':
    'não é usado com icms_partilha: um item com partilha do ICMS (ICMSPart) não leva ICMSUFDest (MOC NA01); remova-o',
  'is not used with icms_partilha: ICMSPart has no FCP of the own operation (only FCP-ST, st.fcp_rate); remove it':
    'não é usado com icms_partilha: o ICMSPart não tem FCP da operação própria (só FCP-ST, st.fcp_rate); remova-o',
  'is not used with icms_partilha: ICMSPart has no relief in PL_009; remove it': 'não é usado com icms_partilha: o ICMSPart não tem desoneração no PL_009; remova-o',
  'is not used with st_repasse: ICMSST has no relief; remove it': 'não é usado com st_repasse: o ICMSST não tem desoneração; remova-o',
  'is only used in a sale to a final consumer (MOC N10a); set consumidor_final to true or remove it': 'só é usado numa venda a consumidor final (MOC N10a); informe consumidor_final true ou remova-o',
  "is only used in an interstate operation (recipient in another state, MOC N10a); remove it or correct the recipient's address":
    'só é usado numa operação interestadual (destinatário em outro estado, MOC N10a); remova-o ou corrija o endereço do destinatário',
  "is only used in an interstate operation (recipient in another state, MOC N10b); remove it or correct the recipient's address":
    'só é usado numa operação interestadual (destinatário em outro estado, MOC N10b); remova-o ou corrija o endereço do destinatário',
  'is only used with CST 10 or 90 (ICMSPart), not {}': 'só é usado com CST 10 ou 90 (ICMSPart), não {}',
  'is only used with CST 41 or 60 (ICMSST), not {}': 'só é usado com CST 41 ou 60 (ICMSST), não {}',
  'is required with icms_partilha: ICMSPart carries the ICMS of the own operation (vBC, pICMS, vICMS)': 'é obrigatório com icms_partilha: o ICMSPart leva o ICMS da operação própria (vBC, pICMS, vICMS)',
  'is required with icms_partilha: ICMSPart carries the ICMS-ST of the operation (modBCST, vBCST, pICMSST, vICMSST); give at least st.rate':
    'é obrigatório com icms_partilha: o ICMSPart leva o ICMS-ST da operação (modBCST, vBCST, pICMSST, vICMSST); informe ao menos st.rate',
  'is required with st_repasse: ICMSST carries the ICMS-ST retained earlier (vBCSTRet, pST, vICMSSTRet); give base, rate and amount':
    'é obrigatório com st_repasse: o ICMSST leva o ICMS-ST retido anteriormente (vBCSTRet, pST, vICMSSTRet); informe base, rate e amount',
  'must be a two-letter Brazilian state (e.g. MG), or EX (UFST)': 'deve ser a sigla de uma UF brasileira (ex.: MG), ou EX (UFST)',
  'must be base * rate = R$ {} (one cent either way) in a normal note with CST 60 (MOC N27d-10, 860)': 'deve ser base * rate = R$ {} (um centavo a mais ou a menos) numa nota normal com CST 60 (MOC N27d-10, 860)',
  'must be greater than 0; leave retained_fcp out when the goods are not subject to the poverty fund on ST (MOC N27b-10, 881)':
    'deve ser maior que 0; deixe retained_fcp de fora quando a mercadoria não está sujeita ao Fundo de Combate à Pobreza na ST (MOC N27b-10, 881)',
  // validate-icms-recipient.ts
  'CSOSN {} is not accepted in a sale to a non-taxpayer (nao_contribuinte): use 102, 103, 300, 400 or 500 (MOC N12a-70, 600)':
    'o CSOSN {} não é aceito numa venda a não contribuinte (nao_contribuinte): use 102, 103, 300, 400 ou 500 (MOC N12a-70, 600)',
  'CST {} (suspension/deferral) is not accepted for a recipient exempt from IE (isento) (MOC N12-80, 529)': 'o CST {} (suspensão/diferimento) não é aceito para um destinatário isento de IE (isento) (MOC N12-80, 529)',
  'CST {} is not accepted in a sale to a non-taxpayer (nao_contribuinte): use 00, 20, 40, 41, 60 or 61 (MOC N12-70, 508)': 'o CST {} não é aceito numa venda a não contribuinte (nao_contribuinte): use 00, 20, 40, 41, 60 ou 61 (MOC N12-70, 508)',
  "is not used in an interstate sale to a non-taxpayer final consumer: the destination's FCP goes in difal.fcp_rate (vFCPUFDest, MOC N17c-20, 876)":
    'não é usado numa venda interestadual a consumidor final não contribuinte: o FCP do destino vai em difal.fcp_rate (vFCPUFDest, MOC N17c-20, 876)',
  'is required: an item under ICMS-ST (CSOSN {}) carries its CEST (MOC N23-10, 806)': 'é obrigatório: um item com ICMS-ST (CSOSN {}) leva o seu CEST (MOC N23-10, 806)',
  'is required: an item under ICMS-ST (CST {}) carries its CEST (MOC N23-10, 806)': 'é obrigatório: um item com ICMS-ST (CST {}) leva o seu CEST (MOC N23-10, 806)',
  'must be at most {}%: the interstate rate of national goods in this operation (MOC N16-20, 693)': 'deve ser no máximo {}%: a alíquota interestadual de mercadoria nacional nesta operação (MOC N16-20, 693)',
  // validate-nfe-item.ts, validate-nfe.ts, validate-nfe-registrations.ts
  'is only used in an interstate operation with a non-taxpayer (nao_contribuinte) final consumer (MOC NA01-30, 695); remove it':
    'só é usado numa operação interestadual com consumidor final não contribuinte (nao_contribuinte) (MOC NA01-30, 695); remova-o',
  "is required: an interstate sale to a non-taxpayer final consumer carries the destination state's ICMS (ICMSUFDest, MOC NA01-20, 694); give difal.destination_rate":
    'é obrigatório: uma venda interestadual a consumidor final não contribuinte leva o ICMS do estado de destino (ICMSUFDest, MOC NA01-20, 694); informe difal.destination_rate',
  'must be a 4-digit CFOP starting with 1, 2, 3 (inbound) or 5, 6, 7 (outbound)': 'deve ser um CFOP de 4 dígitos começando por 1, 2, 3 (entrada) ou 5, 6, 7 (saída)',
  'must be true (the relief is taken off the note total, indDeduzDeson 1) or false (informed only, indDeduzDeson 0)':
    'deve ser true (a desoneração é abatida do total da nota, indDeduzDeson 1) ou false (só informada, indDeduzDeson 0)',
  'is isento, but {} does not admit an exempt taxpayer in an interstate operation without ICMS-ST or exempt items (MOC E16a-30, 805): give contribuinte with its IE, or nao_contribuinte':
    'é isento, mas {} não admite contribuinte isento numa operação interestadual sem ICMS-ST ou itens isentos (MOC E16a-30, 805): informe contribuinte com a IE, ou nao_contribuinte',
  "is too low: the FCP on the ST base (R$ {}) is less than the item's own FCP (R$ {}), and vFCPST is their difference (MOC N23d-10, 860)":
    'é baixo demais: o FCP sobre a base da ST (R$ {}) é menor que o FCP próprio do item (R$ {}), e o vFCPST é a diferença entre eles (MOC N23d-10, 860)',
  "the ICMS relieved and deducted (icms_relief, R$ {}) exceeds the note's value; the total would be R$ {}": 'o ICMS desonerado e abatido (icms_relief, R$ {}) passa do valor da nota; o total seria R$ {}',
  '{}: it is not a valid {} state registration (SEFAZ rejects it with 210, IE do destinatário inválida)': '{}: não é uma inscrição estadual válida de {} (a SEFAZ a rejeita com 210, IE do destinatário inválida)',
  // validate-nfe-references.ts
  "{} (entry relating to a fiscal coupon) needs the key of the coupon's note in referenced_documents (MOC I08-184, 701)":
    '{} (entrada referente a cupom fiscal) exige a chave da nota do cupom em referenced_documents (MOC I08-184, 701)',
  '{} (indirect export) needs the keys of the notes of the goods in referenced_documents (MOC I08-190, 701)': '{} (exportação indireta) exige as chaves das notas das mercadorias em referenced_documents (MOC I08-190, 701)',
  'has the emission month {} (positions 5-6), not 01-12 (MOC BA02-24, 524)': 'tem o mês de emissão {} (posições 5-6), fora de 01-12 (MOC BA02-24, 524)',
  'has the emission year {} (positions 3-4), before 06 or after this year (MOC BA02-20, 524)': 'tem o ano de emissão {} (posições 3-4), antes de 06 ou depois deste ano (MOC BA02-20, 524)',
  'has the number 000000000 (positions 26-34) (MOC BA02-40, 683)': 'tem o número 000000000 (posições 26-34) (MOC BA02-40, 683)',
  'holds an issuer {} (positions 7-20) that is not a valid CNPJ for series {} (MOC BA02-30, 552)': 'tem um emitente {} (posições 7-20) que não é um CNPJ válido para a série {} (MOC BA02-30, 552)',
  'holds an issuer {} (positions 7-20) that is not a valid CPF for series {} (MOC BA02-30, 552)': 'tem um emitente {} (posições 7-20) que não é um CPF válido para a série {} (MOC BA02-30, 552)',
  'is required with presenca presencial_fora: the key of the note that took the goods out of the establishment (MOC B25b-40, 864)':
    'é obrigatório com presenca presencial_fora: a chave da nota com que a mercadoria saiu do estabelecimento (MOC B25b-40, 864)',
  "must be a note of this issuer: a complementar NF-e completes the issuer's own note (MOC B25-50, 269)": 'deve ser uma nota deste emitente: uma NF-e complementar completa uma nota do próprio emitente (MOC B25-50, 269)',
  'must hold exactly one key for a complementar NF-e (MOC B25-40, 255); has {}': 'deve ter exatamente uma chave numa NF-e complementar (MOC B25-40, 255); tem {}',
  'must hold the key of the note a complementar NF-e completes (MOC B25-30, 254)': 'deve ter a chave da nota que a NF-e complementar completa (MOC B25-30, 254)',
  'starts with {}, which is not the IBGE code of a state (MOC BA02-14, 522)': 'começa com {}, que não é o código IBGE de um estado (MOC BA02-14, 522)',
  // validate-nfe-adjustment.ts
  '{} carries IBS/CBS only, and a Simples Nacional or MEI note dated {} carries no IBS/CBS group (LC 214/2025 art. 348 III c; docs/fiscal/tax-reform.md)':
    '{} leva só IBS/CBS, e uma nota do Simples Nacional ou de MEI datada de {} não leva grupo de IBS/CBS (LC 214/2025 art. 348 III c; docs/fiscal/tax-reform.md)',
  "{} is an IBS/CBS adjustment note: it needs the account's taxRegime reform_2026 (PATCH /v1/account), which writes the IBS/CBS groups":
    '{} é uma nota de ajuste de IBS/CBS: exige o taxRegime reform_2026 da conta (PATCH /v1/account), que escreve os grupos de IBS/CBS',
  '{} is an inbound CFOP; a nota de débito is an outbound operation (tpNF 1): use a CFOP starting with 5 or 6 (NT 2025.002-RTC B25-120)':
    '{} é um CFOP de entrada; a nota de débito é uma operação de saída (tpNF 1): use um CFOP começando por 5 ou 6 (NT 2025.002-RTC B25-120)',
  '{} is an outbound CFOP; a nota de crédito is an inbound operation (tpNF 0): use a CFOP starting with 1 or 2 (NT 2025.002-RTC B25-110)':
    '{} é um CFOP de saída; a nota de crédito é uma operação de entrada (tpNF 0): use um CFOP começando por 1 ou 2 (NT 2025.002-RTC B25-110)',
  'is not sent on a nota de crédito or de débito: it carries IBS/CBS only, no ICMS, IPI, PIS nor COFINS (NT 2025.002-RTC B25-80, 1001)':
    'não é enviado numa nota de crédito ou de débito: ela leva só IBS/CBS, sem ICMS, IPI, PIS nem COFINS (NT 2025.002-RTC B25-80, 1001)',
  'is only sent with finalidade credito: tpNFCredito goes on a nota de crédito alone (NT 2025.002-RTC B25.2-10)': 'só é enviado com finalidade credito: o tpNFCredito vai só na nota de crédito (NT 2025.002-RTC B25.2-10)',
  'is only sent with finalidade debito: tpNFDebito goes on a nota de débito alone (NT 2025.002-RTC B25.1-10)': 'só é enviado com finalidade debito: o tpNFDebito vai só na nota de débito (NT 2025.002-RTC B25.1-10)',
  'is required with finalidade credito: the type of the nota de crédito, tpNFCredito (NT 2025.002-RTC B25.2-20, 1164)': 'é obrigatório com finalidade credito: o tipo da nota de crédito, tpNFCredito (NT 2025.002-RTC B25.2-20, 1164)',
  'is required with finalidade debito: the type of the nota de débito, tpNFDebito (NT 2025.002-RTC B25.1-20)': 'é obrigatório com finalidade debito: o tipo da nota de débito, tpNFDebito (NT 2025.002-RTC B25.1-20)',
  "must be a note of {}, the issuer's state (NT 2025.002-RTC B25-60, 678)": 'deve ser uma nota de {}, o estado do emitente (NT 2025.002-RTC B25-60, 678)',
  "must be a note of this issuer: a nota de crédito of type {} adjusts the issuer's own note (NT 2025.002-RTC B25-50, 269)":
    'deve ser uma nota deste emitente: a nota de crédito do tipo {} ajusta uma nota do próprio emitente (NT 2025.002-RTC B25-50, 269)',
  'must be the key of an NF-e (model 55 or an NFC-e, 65): a nota de crédito references no other document (NT 2025.002-RTC B25-100, 1003)':
    'deve ser a chave de uma NF-e (modelo 55, ou de uma NFC-e, 65): a nota de crédito não referencia outro documento (NT 2025.002-RTC B25-100, 1003)',
  'must be the key of an NF-e (model 55): a nota de crédito references no other document (NT 2025.002-RTC B25-100, 1003)':
    'deve ser a chave de uma NF-e (modelo 55): a nota de crédito não referencia outro documento (NT 2025.002-RTC B25-100, 1003)',
  'must hold exactly one key for a nota de crédito of type {}; has {} (NT 2025.002-RTC B25-40, 255)': 'deve ter exatamente uma chave numa nota de crédito do tipo {}; tem {} (NT 2025.002-RTC B25-40, 255)',
  'must hold the key of the note a nota de crédito of type {} adjusts (NT 2025.002-RTC B25-30, 254)': 'deve ter a chave da nota que a nota de crédito do tipo {} ajusta (NT 2025.002-RTC B25-30, 254)',
  // validate-nfe-export.ts
  'is only given in an export (outbound NF-e to a recipient abroad); this one is inbound (MOC ZA01-20, 356)': 'só é informado numa exportação (NF-e de saída a destinatário no exterior); esta é de entrada (MOC ZA01-20, 356)',
  'is only given in an export (outbound NF-e to a recipient abroad); this one is internal (MOC ZA01-20, 356)': 'só é informado numa exportação (NF-e de saída a destinatário no exterior); esta é interna (MOC ZA01-20, 356)',
  'is only given in an export (outbound NF-e to a recipient abroad); this one is interstate (MOC ZA01-20, 356)': 'só é informado numa exportação (NF-e de saída a destinatário no exterior); esta é interestadual (MOC ZA01-20, 356)',
  'is required in an export (outbound NF-e to a recipient abroad): give shipment_uf and shipment_place, where the goods leave the country (MOC ZA01-10, 355)':
    'é obrigatório numa exportação (NF-e de saída a destinatário no exterior): informe shipment_uf e shipment_place, por onde a mercadoria sai do país (MOC ZA01-10, 355)',
  'must be the two-letter Brazilian state where the goods are shipped or cross the border (EX is not accepted, MOC ZA02)':
    'deve ser a sigla da UF onde a mercadoria embarca ou cruza a fronteira (EX não é aceito, MOC ZA02)',
  // validate-nfe-adjustment.ts (docs/fiscal/credit-debit-notes.md)
  '{} is not issued by the gateway yet: it {}; it issues {}': 'o tipo {} ainda não é emitido pelo gateway: ele {}; o gateway emite {}',
  // validate-nfe-item.ts
  '{} is a CFOP of an operation {}, but the recipient makes this operation {}; use a CFOP starting with {}':
    '{} é um CFOP de operação {}, mas o destinatário faz desta uma operação {}; use um CFOP que comece com {}',
  'is required with IPI CST {} ({}): give the legal framework code of the {}, {} to {} (MOC O09-10, 388)':
    'é obrigatório com o CST {} do IPI ({}): informe o código de enquadramento legal da {}, de {} a {} (MOC O09-10, 388)',
  '{} does not fit IPI CST {} ({}): give the legal framework code of the {}, {} to {} (MOC O09-10, 388)':
    '{} não serve para o CST {} do IPI ({}): informe o código de enquadramento legal da {}, de {} a {} (MOC O09-10, 388)',
};
