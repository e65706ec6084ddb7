import type { Translations } from './template-catalog.js';

// The NFC-e and NF-e request validators' sentences in Brazilian Portuguese, keyed by the English
// template (see domain-goods-pt-br.ts). test/api-language-catalog.test.ts lists those still missing.

export const NFCE_PT_BR: Translations = {
  // nfce-icms-codes.ts, nfce-tender-rules.ts
  '{} is not accepted in an NFC-e (the authority accepts only {}); issue an NF-e (model 55) for this operation':
    '{} não é aceito na NFC-e (a SEFAZ aceita só {}); emita uma NF-e (modelo 55) para esta operação',
  'is not accepted with CST {} in an NFC-e (no ST data in an NFC-e); remove it': 'não é aceito com o CST {} na NFC-e (a NFC-e não leva dados de ST); remova-o',
  'is not accepted with CSOSN {} in an NFC-e (no ST data in an NFC-e); remove it': 'não é aceito com o CSOSN {} na NFC-e (a NFC-e não leva dados de ST); remova-o',
  '{} is not accepted with CST {} in an NFC-e; use one of {}': '{} não é aceito com o CST {} na NFC-e; use um de {}',
  '{} is not accepted with CSOSN {} in an NFC-e; use one of {}': '{} não é aceito com o CSOSN {} na NFC-e; use um de {}',
  'add up to R$ {}: an NFC-e may not exceed R$ 200000.00 (MOC W16-30, 780); issue an NF-e (model 55) for this sale':
    'somam R$ {}: uma NFC-e não pode passar de R$ 200000.00 (MOC W16-30, 780); emita uma NF-e (modelo 55) para esta venda',
  'cannot be sem_pagamento in an NFC-e (MOC YA02-40, 899): give the method the consumer paid with (amount 0 for a sale of R$ 0.00)':
    'não pode ser sem_pagamento na NFC-e (MOC YA02-40, 899): informe o meio com que o consumidor pagou (valor 0 numa venda de R$ 0.00)',
  'cannot be outros in an NFC-e (MOC YA02-50, 436): give the method the consumer paid with': 'não pode ser outros na NFC-e (MOC YA02-50, 436): informe o meio com que o consumidor pagou',
  // validate-sale.ts
  'must be a two-letter Brazilian state (e.g. SP)': 'deve ser a sigla de uma UF brasileira (ex.: SP)',
  "must be {}: an NFC-e covers only sales inside the issuer's state": 'deve ser {}: a NFC-e cobre só vendas dentro do estado do emitente',
  'is not an IBGE municipality code (MOC E10-10, 274)': 'não é um código de município do IBGE (MOC E10-10, 274)',
  'belongs to another state than {}: give a municipality of {} (MOC E10-20, 275)': 'pertence a outro estado que não {}: informe um município de {} (MOC E10-20, 275)',
  'is required for home delivery (name, CPF or CNPJ and address; MOC E01-20, 787)': 'é obrigatório na entrega em domicílio (nome, CPF ou CNPJ e endereço; MOC E01-20, 787)',
  'give either cpf or cnpj, not both': 'informe cpf ou cnpj, não os dois',
  'is required when a consumer is given (or give consumer.cnpj)': 'é obrigatório quando há consumidor (ou informe consumer.cnpj)',
  'is not a valid CPF (11 digits, check digits must match; MOC E03-10, 237)': 'não é um CPF válido (11 dígitos, os dígitos verificadores devem conferir; MOC E03-10, 237)',
  'is not a valid CNPJ (14 characters, check digits must match; MOC E02-10, 208)': 'não é um CNPJ válido (14 caracteres, os dígitos verificadores devem conferir; MOC E02-10, 208)',
  "is the issuer's own CNPJ: an NFC-e is not issued to its issuer (MOC E02-20, 220)": 'é o CNPJ do próprio emitente: a NFC-e não é emitida para o seu emitente (MOC E02-20, 220)',
  'is not an e-mail address': 'não é um endereço de e-mail',
  'is required for home delivery (MOC E05-20, 788)': 'é obrigatório na entrega em domicílio (MOC E05-20, 788)',
  'is required for home delivery: name the carrier (transporte.modalidade and transporte.transportadora; the issuer itself for an own delivery) (MOC X03-20, 786)':
    'é obrigatório na entrega em domicílio: indique a transportadora (transporte.modalidade e transporte.transportadora; o próprio emitente numa entrega própria) (MOC X03-20, 786)',
  'must be sem_frete unless home_delivery is true: an NFC-e carries freight only in a home delivery (MOC X02-10, 753)':
    'deve ser sem_frete, salvo com home_delivery true: a NFC-e só leva frete numa entrega em domicílio (MOC X02-10, 753)',
  'is only given in a home delivery (home_delivery: true) (MOC X03-10, 754)': 'só é informado numa entrega em domicílio (home_delivery: true) (MOC X03-10, 754)',
  'is required: the carrier of the delivery (MOC X03-20, 786)': 'é obrigatório: a transportadora da entrega (MOC X03-20, 786)',
  'send either payment or payments, not both': 'envie payment ou payments, não os dois',
  'is required: how the consumer paid (an NFC-e must carry the payment group)': 'é obrigatório: como o consumidor pagou (a NFC-e deve levar o grupo de pagamento)',
  'must have at most 100 entries': 'deve ter no máximo 100 entradas',
  'add up to R$ {} but the total is R$ {}': 'somam R$ {}, mas o total é R$ {}',
  'is R$ {} but the total is R$ {}': 'é R$ {}, mas o total é R$ {}',
  'exceed the total R$ {} by R$ {}; only cash (dinheiro) can be overpaid and given back as change': 'passam do total R$ {} em R$ {}; só dinheiro pode passar do total e voltar como troco',
  'exceeds the total R$ {} by R$ {}; only cash (dinheiro) can be overpaid and given back as change': 'passa do total R$ {} em R$ {}; só dinheiro pode passar do total e voltar como troco',
  'must have at least one item': 'deve ter pelo menos um item',
  'must have at most 990 items (layout limit of one NFC-e)': 'deve ter no máximo 990 itens (limite do leiaute de uma NFC-e)',
  'is larger than the value of the items after their own discounts': 'é maior que o valor dos itens depois dos seus próprios descontos',
  'is required: sales of R$ 10000.00 or more must identify the consumer (this one is R$ {}; MOC W16-40, 750)':
    'é obrigatório: vendas de R$ 10000.00 ou mais devem identificar o consumidor (esta é de R$ {}; MOC W16-40, 750)',
  "is required: sales above R$ 10000.00 carry the consumer's address (this one is R$ {}; MOC W16-60, 752)":
    'é obrigatório: vendas acima de R$ 10000.00 levam o endereço do consumidor (esta é de R$ {}; MOC W16-60, 752)',
  // offline-nfce.ts, offline-ide-rules.ts: a sale the point of sale issued offline (POST /v1/nfce/offline)
  "{} is not a municipality of the issuer's state (cUF {}) (MOC B12-20, 271)": '{} não é um município do estado do emitente (cUF {}) (MOC B12-20, 271)',
  '{} is not an IBGE municipality code (MOC B12-10, 270)': '{} não é um código de município do IBGE (MOC B12-10, 270)',
  "is {}; a point of sale issues with the taxpayer's application, procEmi 0 (MOC B26-20, 451)": 'é {}; o ponto de venda emite com o aplicativo do contribuinte, procEmi 0 (MOC B26-20, 451)',
  'is {}; an NFC-e DANFE is tpImp 4 (or 5, electronic message) (MOC B21-10, 709)': 'é {}; o DANFE da NFC-e é tpImp 4 (ou 5, mensagem eletrônica) (MOC B21-10, 709)',
  'is {}; an NFC-e is a normal note, finNFe 1 (MOC B25-20, 715)': 'é {}; a NFC-e é uma nota normal, finNFe 1 (MOC B25-20, 715)',
  'is {}; an NFC-e is a sale to the final consumer, indFinal 1 (MOC B25a-10, 716)': 'é {}; a NFC-e é uma venda a consumidor final, indFinal 1 (MOC B25a-10, 716)',
  'is {}; an NFC-e is an internal operation, idDest 1 (MOC B11a-10, 707)': 'é {}; a NFC-e é uma operação interna, idDest 1 (MOC B11a-10, 707)',
  'is {}; an NFC-e is an outbound note, tpNF 1 (MOC B11-10, 706)': 'é {}; a NFC-e é uma nota de saída, tpNF 1 (MOC B11-10, 706)',
  'is {}; an NFC-e is presential (1) or a home delivery (4) (MOC B25b-20, 717)': 'é {}; a NFC-e é presencial (1) ou entrega em domicílio (4) (MOC B25b-20, 717)',
  'is required with indPres 4 (0: own channel, 1: a marketplace) (MOC B25c-10, 434)': 'é obrigatório com indPres 4 (0: canal próprio, 1: um marketplace) (MOC B25c-10, 434)',
  'must be left out with indPres 1 (MOC B25c-20, 435)': 'deve ficar de fora com indPres 1 (MOC B25c-20, 435)',
  'must be left out: an NFC-e has no date of exit or entry (MOC B10-10, 705)': 'deve ficar de fora: a NFC-e não tem data de saída ou entrada (MOC B10-10, 705)',
  '{} is after dhEmi {}: contingency starts before the sale it covers': '{} é posterior a dhEmi {}: a contingência começa antes da venda que ela cobre',
  '{} is in the future (MOC B09-10, 703)': '{} está no futuro (MOC B09-10, 703)',
  '{} is not a date-time': '{} não é uma data e hora',
  "{} is not a series of the point of sale (890-919 are the fisco's, 920-969 issuers identified by CPF, 970-999 nobody's; MOC B26-10, 244); use one below 890":
    '{} não é uma série do ponto de venda (890-919 são do fisco, 920-969 de emitentes identificados por CPF, 970-999 de ninguém; MOC B26-10, 244); use uma abaixo de 890',
  '{} is not the CNPJ of the issuer ({})': '{} não é o CNPJ do emitente ({})',
  '{} is refused by NT 2019.001 B03-10 (equal to nNF or a forbidden sequence; 897)': '{} é recusado pela NT 2019.001 B03-10 (igual ao nNF ou uma sequência proibida; 897)',
  "{} is the series the gateway numbers for this issuer; a point of sale issues offline in a series of its own so the gateway's numbers stay gap-free":
    '{} é a série que o gateway numera para este emitente; o ponto de venda emite offline numa série própria para que a numeração do gateway fique sem lacunas',
  'is {} but the issuer emits in homologation (2)': 'é {}, mas o emitente emite em homologação (2)',
  'is {} but the issuer emits in production (1)': 'é {}, mas o emitente emite em produção (1)',
  'is {}; an NFC-e issued offline carries tpEmis 9 (FACTS 10)': 'é {}; uma NFC-e emitida offline leva tpEmis 9 (FACTS 10)',
  'is {}; only an NFC-e (model 65) is issued offline': 'é {}; só a NFC-e (modelo 65) é emitida offline',
  'is required in offline contingency (when the point of sale lost the authority) (MOC B28-20, 557)': 'é obrigatório na contingência offline (quando o ponto de venda perdeu a SEFAZ) (MOC B28-20, 557)',
  'must say why the authority could not be reached, 15 to 256 characters': 'deve dizer por que a SEFAZ não pôde ser alcançada, de 15 a 256 caracteres',
};

export const NFE_PT_BR: Translations = {
  // validate-fuel-repasse.ts (docs/fiscal/fuel.md)
  "is required with CST 60 for ANP product {}: this fuel's ST charged earlier goes in the ICMSST group, not in ICMS60 (MOC N08-10, 858)":
    'é obrigatório com CST 60 para o produto ANP {}: o ICMS-ST cobrado anteriormente deste combustível vai no grupo ICMSST, não no ICMS60 (MOC N08-10, 858)',
  // validate-nfe-parties.ts: the recipient
  'must be a plate in capitals without separators (e.g. ABC1234 or ABC1D23)': 'deve ser uma placa em maiúsculas sem separadores (ex.: ABC1234 ou ABC1D23)',
  'must be the BACEN country code (1-4 digits; 1058 Brazil)': 'deve ser o código de país do BACEN (1 a 4 dígitos; 1058 Brasil)',
  "must be the recipient's IE, 2-14 digits (required for a contribuinte, MOC E17-20, 728)": 'deve ser a IE do destinatário, de 2 a 14 dígitos (obrigatória para um contribuinte, MOC E17-20, 728)',
  'is not given in an interstate operation (recipient in another state): leave the vehicle out (MOC X02-20, 868)': 'não é informado numa operação interestadual (destinatário em outro estado): deixe o veículo de fora (MOC X02-20, 868)',
  'is not used for an address abroad (the layout writes EX)': 'não é usado num endereço no exterior (o leiaute escreve EX)',
  'is not used for an address abroad (the layout writes 9999999)': 'não é usado num endereço no exterior (o leiaute escreve 9999999)',
  'must be a two-letter Brazilian state (e.g. RJ), or give country_code for an address abroad': 'deve ser a sigla de uma UF brasileira (ex.: RJ), ou informe country_code para um endereço no exterior',
  'is required: an NF-e identifies its recipient (MOC E01-10, 719): name, CNPJ/CPF (or id_estrangeiro abroad), IE indicator and address':
    'é obrigatório: a NF-e identifica o destinatário (MOC E01-10, 719): nome, CNPJ/CPF (ou id_estrangeiro no exterior), indicador da IE e endereço',
  'give only one of cnpj, cpf or id_estrangeiro': 'informe só um de cnpj, cpf ou id_estrangeiro',
  'must be empty or 5 to 20 characters without spaces': 'deve estar vazio ou ter de 5 a 20 caracteres sem espaços',
  'may hold only letters, digits and the characters : . + - / ( ) (MOC E03a-60, 372)': 'só pode ter letras, dígitos e os caracteres : . + - / ( ) (MOC E03a-60, 372)',
  "is required: the recipient's name or company name (MOC E04-10, 724)": 'é obrigatório: o nome ou a razão social do destinatário (MOC E04-10, 724)',
  'is required in an NF-e (MOC E05-10, 726)': 'é obrigatório na NF-e (MOC E05-10, 726)',
  'is required for a recipient abroad (MOC E03a-10, 720; may be empty when the buyer has none)': 'é obrigatório para um destinatário no exterior (MOC E03a-10, 720; pode ficar vazio quando o comprador não tem)',
  'must be nao_contribuinte for a recipient abroad (MOC E16a-20, 790)': 'deve ser nao_contribuinte para um destinatário no exterior (MOC E16a-20, 790)',
  'is not used for a recipient abroad: a foreign recipient has no IE (MOC E03a-30, 925; E17-40, 792)': 'não é usado para um destinatário no exterior: um destinatário estrangeiro não tem IE (MOC E03a-30, 925; E17-40, 792)',
  'is only used for a recipient abroad (MOC E03a-20, 721); give cnpj or cpf': 'só é usado para um destinatário no exterior (MOC E03a-20, 721); informe cnpj ou cpf',
  'is required (or destinatario.cpf) for a recipient in Brazil': 'é obrigatório (ou destinatario.cpf) para um destinatário no Brasil',
  'is required for a contribuinte recipient: its IE, 2-14 digits (MOC E17-20, 728)': 'é obrigatório para um destinatário contribuinte: a sua IE, de 2 a 14 dígitos (MOC E17-20, 728)',
  'is only given for a contribuinte recipient (MOC E17-30, 791); this one is {}': 'só é informado para um destinatário contribuinte (MOC E17-30, 791); este é {}',
  'must have at most 10 entries (XSD autXML maxOccurs); has {}': 'deve ter no máximo 10 entradas (maxOccurs de autXML no XSD); tem {}',
  'is not a valid CPF (11 digits, check digits must match; MOC GA03-10, 325)': 'não é um CPF válido (11 dígitos, os dígitos verificadores devem conferir; MOC GA03-10, 325)',
  "is the recipient's CPF, which may download the note already (MOC GA03-20, 326); remove it": 'é o CPF do destinatário, que já pode baixar a nota (MOC GA03-20, 326); remova-o',
  'must be a valid CNPJ (14 characters, check digits must match; MOC GA02-10, 323) or CPF (11 digits)': 'deve ser um CNPJ válido (14 caracteres, os dígitos verificadores devem conferir; MOC GA02-10, 323) ou um CPF (11 dígitos)',
  // validate-nfe-parties.ts: invoice and payments
  'must be a whole number from 0': 'deve ser um número inteiro a partir de 0',
  'is larger than valor_original (MOC Y05-10, 901)': 'é maior que valor_original (MOC Y05-10, 901)',
  'must have at most 120 installments (XSD dup maxOccurs); has {}': 'deve ter no máximo 120 parcelas (maxOccurs de dup no XSD); tem {}',
  'must not be before the emission date {} (MOC Y09-20, 900)': 'não pode ser anterior à data de emissão {} (MOC Y09-20, 900)',
  "must not be before the previous installment's {} (MOC Y09-30, 850)": 'não pode ser anterior à da parcela anterior, {} (MOC Y09-30, 850)',
  'add up to R$ {} but the invoice net value is R$ {} (MOC Y10-10, 851)': 'somam R$ {}, mas o valor líquido da fatura é R$ {} (MOC Y10-10, 851)',
  'add up to R$ {} but the invoice net value is R$ {} (MOC Y10-10, 851); without fatura the invoice is the note total':
    'somam R$ {}, mas o valor líquido da fatura é R$ {} (MOC Y10-10, 851); sem fatura, a fatura é o total da nota',
  'is required: how the note is paid (use method sem_pagamento with amount 0 when nothing is paid)': 'é obrigatório: como a nota é paga (use o método sem_pagamento com valor 0 quando nada é pago)',
  'sem_pagamento must be the only payment': 'sem_pagamento deve ser o único pagamento',
  'must be sem_pagamento alone for a ajuste NF-e (MOC YA02-04, 871)': 'deve ser só sem_pagamento numa NF-e de ajuste (MOC YA02-04, 871)',
  'must be sem_pagamento alone for a devolucao NF-e (MOC YA02-04, 871)': 'deve ser só sem_pagamento numa NF-e de devolução (MOC YA02-04, 871)',
  // validate-nfe.ts
  'must have at most 990 items (XSD det maxOccurs)': 'deve ter no máximo 990 itens (maxOccurs de det no XSD)',
  'is an inbound CFOP but items[0] is inbound: one NF-e goes one way (MOC I08-10/20, 518/519)': 'é um CFOP de entrada, mas items[0] é de entrada: uma NF-e vai num só sentido (MOC I08-10/20, 518/519)',
  'is an inbound CFOP but items[0] is outbound: one NF-e goes one way (MOC I08-10/20, 518/519)': 'é um CFOP de entrada, mas items[0] é de saída: uma NF-e vai num só sentido (MOC I08-10/20, 518/519)',
  'is an outbound CFOP but items[0] is inbound: one NF-e goes one way (MOC I08-10/20, 518/519)': 'é um CFOP de saída, mas items[0] é de entrada: uma NF-e vai num só sentido (MOC I08-10/20, 518/519)',
  'is an outbound CFOP but items[0] is outbound: one NF-e goes one way (MOC I08-10/20, 518/519)': 'é um CFOP de saída, mas items[0] é de saída: uma NF-e vai num só sentido (MOC I08-10/20, 518/519)',
  'must be true (or left out) for a nao_contribuinte recipient in an outbound operation (MOC E16a-40, 696)': 'deve ser true (ou ficar de fora) para um destinatário nao_contribuinte numa operação de saída (MOC E16a-40, 696)',
  'is only used when presenca is internet, telefone or outros (MOC B25c-20, 435)': 'só é usado quando presenca é internet, telefone ou outros (MOC B25c-20, 435)',
  'is not a valid CNPJ (MOC YB02-10, 440)': 'não é um CNPJ válido (MOC YB02-10, 440)',
  // validate-nfe-item.ts
  'is only used with CST 20, 30, 40, 41, 50, 70 or 90, not {}': 'só é usado com CST 20, 30, 40, 41, 50, 70 ou 90, não {}',
  'must be greater than 0: a relief reason (motDesICMS) goes with the ICMS relieved (vICMSDeson, MOC N28-30, 627)': 'deve ser maior que 0: um motivo de desoneração (motDesICMS) vai com o ICMS desonerado (vICMSDeson, MOC N28-30, 627)',
  'must be one of {} for CST {} (motDesICMS)': 'deve ser um de {} para o CST {} (motDesICMS)',
  'is not used with IPI CST {} (not taxed, IPINT)': 'não é usado com o CST {} do IPI (não tributado, IPINT)',
  'must be at least the interstate rate of this item, {}%': 'deve ser ao menos a alíquota interestadual deste item, {}%',
  'is only used with CST 51 and pICMS (deferral of the ICMS of the operation)': 'só é usado com CST 51 e pICMS (diferimento do ICMS da operação)',
  'is larger than the item value after its discount': 'é maior que o valor do item depois do seu desconto',
  // validate-nfe-references.ts
  'must be a 44-character access key': 'deve ser uma chave de acesso de 44 caracteres',
  'has a wrong check digit (last digit); copy the key again (MOC BA02-10, 547)': 'tem o dígito verificador (o último) errado; copie a chave de novo (MOC BA02-10, 547)',
  'must have at most 999 keys': 'deve ter no máximo 999 chaves',
  'repeats referenced_documents[{}] (MOC BA02-44, 680)': 'repete referenced_documents[{}] (MOC BA02-44, 680)',
  'must be the key of an NF-e (55) or NFC-e (65) (MOC BA02-34, 679)': 'deve ser a chave de uma NF-e (55) ou NFC-e (65) (MOC BA02-34, 679)',
  'is required for a devolucao NF-e: the key of the note it returns (MOC B25-70, 321)': 'é obrigatório numa NF-e de devolução: a chave da nota que ela devolve (MOC B25-70, 321)',
  'is required for an ajuste NF-e: the key of the note it adjusts': 'é obrigatório numa NF-e de ajuste: a chave da nota que ela ajusta',
};
