import type { Translations } from './template-catalog.js';

// The reform groups' checks in Brazilian Portuguese, keyed by the English template (see
// domain-goods-pt-br.ts): deferral and suspension, presumed credit, credit transfer and government
// purchases (documents/goods/domain/reform-*.ts, documents/nfe/domain/validate-nfe-credit-transfer.ts).

export const REFORM_GROUPS_PT_BR: Translations = {
  // reform-credit-transfer.ts
  'is not used with CST {}: only a CST whose ind_gTransfCred is 1 (800) carries gTransfCred (NT 2025.002-RTC UB13-44, cStat 1131)':
    'não é usado com o CST {}: só um CST com ind_gTransfCred 1 (800) leva gTransfCred (NT 2025.002-RTC UB13-44, cStat 1131)',
  'is required with CST {}: its ind_gTransfCred is 1, the item carries gTransfCred (NT 2025.002-RTC UB13-45, cStat 1132)':
    'é obrigatório com o CST {}: seu ind_gTransfCred é 1, o item leva gTransfCred (NT 2025.002-RTC UB13-45, cStat 1132)',
  'the IBS or the CBS transferred must be above zero (NT 2025.002-RTC UB106-40, cStat 1129)':
    'o IBS ou a CBS transferidos devem ser maiores que zero (NT 2025.002-RTC UB106-40, cStat 1129)',
  // reform-deferral-checks.ts
  '{} belongs to CST {}, not {}': '{} pertence ao CST {}, não ao {}',
  '{} is not a cClassTrib {} (NT 2025.002-RTC UB70-10, cStat 1067)': '{} não é um cClassTrib {} (NT 2025.002-RTC UB70-10, cStat 1067)',
  '{} is not a CST of the IBS/CBS table (NT 2025.002-RTC UB69-10, cStat 1066)': '{} não é um CST da tabela do IBS/CBS (NT 2025.002-RTC UB69-10, cStat 1066)',
  'CST {} / cClassTrib {} is not a taxation this gateway can compute as the regular one: it needs a CST whose only groups are gIBSCBS and gRed (e.g. 000 or 200)':
    'CST {} / cClassTrib {} não é uma tributação que este gateway calcula como a regular: é preciso um CST cujos únicos grupos sejam gIBSCBS e gRed (por exemplo 000 ou 200)',
  'is not used with cClassTrib {}: its indicator ind_gTribRegular is 0, which forbids gTribRegular (NT 2025.002-RTC UB68-11, cStat 1114)':
    'não é usado com o cClassTrib {}: seu indicador ind_gTribRegular é 0, o que proíbe gTribRegular (NT 2025.002-RTC UB68-11, cStat 1114)',
  'is not used with CST {}: its indicator ind_gDif is 0, which forbids gDif (NT 2025.002-RTC UB22-10, cStat 1029); deferral is CST 510 or 515':
    'não é usado com o CST {}: seu indicador ind_gDif é 0, o que proíbe gDif (NT 2025.002-RTC UB22-10, cStat 1029); diferimento é CST 510 ou 515',
  'is required with cClassTrib {} ({}): its indicator ind_gTribRegular is 1, so the item says how it would be taxed if the condition is not met, e.g. {"cst": "000", "class_code": "000001"} (NT 2025.002-RTC UB68-10, cStat 1065)':
    'é obrigatório com o cClassTrib {} ({}): seu indicador ind_gTribRegular é 1, então o item diz como seria tributado se a condição não fosse cumprida, por exemplo {"cst": "000", "class_code": "000001"} (NT 2025.002-RTC UB68-10, cStat 1065)',
  'is required with CST {} ({}): its indicator ind_gDif is 1 and the authority refuses the item without gDif (NT 2025.002-RTC UB22-20, cStat 1030)':
    'é obrigatório com o CST {} ({}): seu indicador ind_gDif é 1 e a autoridade recusa o item sem gDif (NT 2025.002-RTC UB22-20, cStat 1030)',
  // reform-government-purchase.ts
  'a government purchase carries the IBS/CBS groups (gRed and gTribCompraGov in each item, NT 2025.002-RTC UB26-20, UB82a-10): it needs the account taxRegime reform_2026 in 2026, and a Simples Nacional note dated 2026 carries none (LC 214/2025 art. 348 III c)':
    'uma compra governamental leva os grupos do IBS/CBS (gRed e gTribCompraGov em cada item, NT 2025.002-RTC UB26-20, UB82a-10): em 2026 ela exige o taxRegime reform_2026 na conta, e uma nota do Simples Nacional de 2026 não leva nenhum (LC 214/2025 art. 348 III c)',
  'items[{}] is deferred or suspended (gDif / gTribRegular): a government purchase with such items is not implemented yet':
    'items[{}] tem diferimento ou suspensão (gDif / gTribRegular): uma compra governamental com esses itens ainda não é suportada',
  'must be 1 to 6 (TEnteGov: {})': 'deve ser de 1 a 6 (TEnteGov: {})',
  "the government purchase reducer (pRedutor, LC 214/2025 art. 370) and the transfer of the other entities' IBS/CBS to the buyer (art. 473; NT 2025.002-RTC B32-10, cStat 1008) from 2027 are not implemented: a government purchase dated {} cannot be issued yet":
    'o redutor da compra governamental (pRedutor, LC 214/2025 art. 370) e a transferência do IBS/CBS dos outros entes ao comprador (art. 473; NT 2025.002-RTC B32-10, cStat 1008) a partir de 2027 ainda não são suportados: uma compra governamental com data {} ainda não pode ser emitida',
  // reform-presumed-credit.ts
  "{} ({}) is deducted from the item's tax (ind_DeduzCredPres 1, NT 2025.002-RTC UB54a-10), which this gateway does not write yet":
    '{} ({}) é deduzido do tributo do item (ind_DeduzCredPres 1, NT 2025.002-RTC UB54a-10), o que este gateway ainda não escreve',
  '{} ({}) is taken by event, not on the note: the cCredPres table\'s "Apropria via NF?" is 0':
    '{} ({}) é apropriado por evento, não na nota: o "Apropria via NF?" da tabela cCredPres é 0',
  '{} is not a code of the presumed credit table cCredPres (NT 2025.002-RTC UB122-10, cStat 1055)':
    '{} não é um código da tabela de crédito presumido cCredPres (NT 2025.002-RTC UB122-10, cStat 1055)',
  "{}'s {} credit is in force from {} in the cCredPres table, not on {}": 'o código {} tem o crédito de {} em vigor a partir de {} na tabela cCredPres, não em {}',
  'is not allowed in {}: the presumed credit of the operation is NF-e only (NT 2025.002-RTC UB120-10, cStat 1049)':
    'não é permitido em {}: o crédito presumido da operação é só da NF-e (NT 2025.002-RTC UB120-10, cStat 1049)',
  'is not allowed with cClassTrib {}: its ind_gCredPresOper is 0 in the classification table (NT 2025.002-RTC UB120-20, cStat 1175)':
    'não é permitido com o cClassTrib {}: seu ind_gCredPresOper é 0 na tabela de classificação (NT 2025.002-RTC UB120-20, cStat 1175)',
  'is not used with code {}: its {} is 0 (NT 2025.002-RTC {}, cStat {})': 'não é usado com o código {}: seu {} é 0 (NT 2025.002-RTC {}, cStat {})',
  'is required with code {}: its {} is 1 (NT 2025.002-RTC {}, cStat {})': 'é obrigatório com o código {}: seu {} é 1 (NT 2025.002-RTC {}, cStat {})',
  'must be 2 digits (cCredPres)': 'deve ter 2 dígitos (cCredPres)',
  // validate-nfe-credit-transfer.ts
  'a nota de débito of type {} carries CST 800 / cClassTrib {} with credit_transfer in every item (the type binds the cClassTrib, docs/fiscal/credit-debit-notes.md)':
    'a nota de débito do tipo {} leva CST 800 / cClassTrib {} com credit_transfer em todos os itens (o tipo determina o cClassTrib, docs/fiscal/credit-debit-notes.md)',
  'is only sent on a nota de débito (finalidade debito, finNFe 6): gTransfCred on another note is refused (NT 2025.002-RTC UB106-30, cStat 1133)':
    'só é enviado em uma nota de débito (finalidade debito, finNFe 6): gTransfCred em outra nota é recusado (NT 2025.002-RTC UB106-30, cStat 1133)',
  'is only sent on a nota de débito of debit_type 01 (cooperatives) or 05 (succession) (NT 2025.002-RTC UB106-31, cStat 1168)':
    'só é enviado em uma nota de débito de debit_type 01 (cooperativas) ou 05 (sucessão) (NT 2025.002-RTC UB106-31, cStat 1168)',
  // reform-class-checks.ts, reform-rate-checks.ts, validate-reform-rules.ts
  'CST {} / cClassTrib {} needs {}, which this gateway does not write yet': 'o CST {} / cClassTrib {} exige {}, que este gateway ainda não escreve',
  'is required for a note dated {}: {}; send the {} in force (percent)': 'é obrigatório numa nota com data de {}: {}; informe a alíquota {} em vigor (percentual)',
  "is required for a note dated {}: the {} of {} is fixed by each entity's law, which this gateway does not have; send the {} in force (percent)":
    'é obrigatório numa nota com data de {}: a alíquota {} de {} é fixada pela lei de cada ente, que este gateway não tem; informe a alíquota {} em vigor (percentual)',
  'must be {} for a note dated {} (the authority refuses another {}: NT 2025.002-RTC {}); leave it out to get it':
    'deve ser {} numa nota com data de {} (a autoridade recusa outra alíquota {}: NT 2025.002-RTC {}); deixe-o de fora para recebê-la',
  'must be {} ({}) for a note dated {} (NT 2025.002 {}; {})': 'deve ser {} ({}) numa nota com data de {} (NT 2025.002 {}; {})',
};
