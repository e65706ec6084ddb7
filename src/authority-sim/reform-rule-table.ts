// The NT 2025.002-RTC validation rules on the reform groups of the NF-e/NFC-e (groups UB, W03 totals, VB),
// transcribed from the NT's table "Regras de Validação" (v1.31, November 2025; later changes named in
// docs/fiscal/reform-rules.md). These rules are not in the MOC 7.0 Anexo I table that rule-coverage.ts counts,
// so they have their own registry: this table (id, cStat, the NT's words) and enforced-reform.ts (which of
// them the simulator plays, where). `message` is the NT's "Descrição Erro" without its "[nItem: 999]".

export interface ReformRule {
  /** The NT's field-seq id (Campo-Seq), e.g. UB26-20. */
  id: string;
  cStat: number;
  message: string;
  /** Per item (the answer names it: [nItem: n]) or on the note. */
  scope: 'item' | 'note';
}

const item = (id: string, cStat: number, message: string): ReformRule => ({ id, cStat, message: `Rejeição: ${message}`, scope: 'item' });
const note = (id: string, cStat: number, message: string): ReformRule => ({ id, cStat, message: `Rejeição: ${message}`, scope: 'note' });

export const REFORM_RULES: readonly ReformRule[] = [
  // UB12-UB14: the item's group, CST and classification
  item('UB12-10', 1115, 'IBS/CBS não informado'),
  item('UB13-10', 1020, 'CST do IBS/CBS informado inexistente'),
  item('UB13-20', 1021, 'Grupo IBS/CBS informado indevidamente'),
  item('UB13-30', 1022, 'Grupo IBS/CBS não informado'),
  item('UB13-39', 1151, 'Grupo IBS/CBS Monofásico informado indevidamente'),
  item('UB13-40', 1116, 'Grupo IBS/CBS Monofásico não informado'),
  item('UB13-44', 1131, 'Grupo de transferência de crédito informado indevidamente'),
  item('UB13-45', 1132, 'Grupo de transferência de crédito não informado'),
  item('UB14-10', 1023, 'Classificação Tributária do IBS/CBS informada inexistente'),
  // The NT's text repeats "Rejeição:" (v1.31 and v1.50 alike); the answer carries it once.
  item('UB14-20', 1024, 'Classificação Tributária do IBS e da CBS incompatível com o CST informado'),
  // v1.31's PDF shows "CST cClassTrib" (the CST struck out when the rule moved from the CST table to cClassTrib's).
  item('UB14-25', 1025, 'cClassTrib do IBS/CBS não permitido neste modelo de DFe'),
  item('UB16-10', 1104, 'Valor da Base de cálculo do IBS e CBS difere do somatório dos valores que a compõem'),
  // rates of the year
  item('UB18-10', 1026, 'Alíquota do IBS da UF inválida'),
  item('UB37-10', 1036, 'Alíquota do IBS do Município inválida'),
  item('UB56-10', 1037, 'Alíquota da CBS inválida'),
  // deferral (gDif), by the CST's ind_gDif
  item('UB22-10', 1029, 'CST do IBS/CBS informado não permite informação de diferimento Estadual'),
  item('UB22-20', 1030, 'CST do IBS/CBS informado obriga informação de diferimento Estadual'),
  item('UB40-20', 1083, 'CST do IBS/CBS informado não permite informação de diferimento Municipal'),
  item('UB40-10', 1044, 'CST do IBS/CBS informado obriga informação de diferimento Municipal'),
  item('UB59-20', 1090, 'CST do IBS/CBS informado não permite informação de diferimento da CBS'),
  item('UB59-10', 1061, 'CST do IBS/CBS informado obriga informação de diferimento da CBS'),
  item('UB23-10', 1031, 'Valor do Diferimento da UF difere do calculado'),
  item('UB42-10', 1045, 'Valor do Diferimento do Município difere do calculado'),
  item('UB61-10', 1062, 'Valor do Diferimento da CBS difere do calculado'),
  // rate reduction (gRed), by the CST's ind_gRed and the classification's reductions
  item('UB26-10', 1032, 'CST do IBS/CBS informado não permite informação de redução de alíquota Estadual'),
  item('UB26-20', 1033, 'Não informado o grupo de redução de alíquota Estadual'),
  item('UB45-10', 1007, 'CST do IBS/CBS informado não permite informação de redução de alíquota municipal'),
  item('UB45-20', 1074, 'Não informado o grupo de redução de alíquota Municipal'),
  item('UB64-10', 1028, 'CST do IBS/CBS informado não permite informação de redução de alíquota da CBS'),
  item('UB64-20', 1079, 'Não informado o grupo de redução de alíquota da CBS'),
  item('UB27-10', 1034, 'Percentual de redução de alíquota da UF não é válido para este cClassTrib'),
  item('UB46-10', 1046, 'Percentual de redução de alíquota do Município não é válido para este cClassTrib'),
  item('UB65-10', 1063, 'Percentual de redução de alíquota da CBS não é válido para este cClassTrib'),
  item('UB28-10', 1035, 'Valor da Alíquota Efetiva do IBS da UF calculado incorretamente'),
  item('UB47-10', 1047, 'Valor da Alíquota Efetiva do IBS do Município calculado incorretamente'),
  item('UB66-10', 1064, 'Valor da Alíquota Efetiva da CBS calculado incorretamente'),
  // values
  item('UB35-10', 1041, 'Valor do IBS da UF difere do calculado'),
  item('UB54-10', 1052, 'Valor do IBS Municipal difere do calculado'),
  item('UB54a-10', 1150, 'Valor do IBS do Item (vIBS) difere do calculado'),
  item('UB67-10', 1069, 'Valor da CBS difere do calculado'),
  // regular taxation (gTribRegular), by the classification's ind_gTribRegular
  item('UB68-10', 1065, 'Classificação Tributária do IBS e da CBS informada obriga informação da tributação regular'),
  item('UB68-11', 1114, 'Classificação Tributária do IBS e da CBS informada não permite informação da tributação regular'),
  item('UB69-10', 1066, 'CST do IBS e da CBS informado no grupo de tributação regular inexistente'),
  item('UB70-10', 1067, 'Classificação Tributária do IBS e da CBS informada no grupo de tributação regular inexistente'),
  item('UB72-10', 1040, 'Valor do Tributo Regular da UF difere do calculado'),
  item('UB72b-10', 1051, 'Valor do Tributo Regular do Município difere do calculado'),
  item('UB72d-10', 1068, 'Valor do Tributo Regular da CBS difere do calculado'),
  // government purchase (ide/gCompraGov, B31-B34; gTribCompraGov, UB82a)
  note('B31-10', 1006, 'NFCe com grupo de compra governamental'),
  note('B32-10', 1008, 'Nota de compra governamental e alíquota dos outros entes informada incorretamente'),
  note('B34-10', 1140, 'NF-e de recebimento de pagamento do ente governamental sem nota de fornecimento referenciada'),
  item('UB82a-10', 1141, 'Grupo de informações da composição do valor do IBS e da CBS em compras governamentais não informado'),
  item('UB82a-20', 1142, 'Soma dos valores de IBS e CBS em compras governamentais divergente'),
  item('UB82a-30', 1144, 'Grupo de informações da composição do valor do IBS e da CBS em compras governamentais informado indevidamente'),
  // credit transfer on a debit note
  item('UB106-30', 1133, 'Finalidade de Emissão da Nota Fiscal incompatível com o CST'),
  item('UB106-31', 1168, 'Tipo de Nota de Débito incompatível com o CST'),
  item('UB106-40', 1129, 'Valor do IBS ou da CBS deve ser maior que zero na transferência de crédito.'),
  // presumed credit of the operation (gCredPresOper), by the cClassTrib's and the cCredPres table's indicators
  item('UB120-10', 1049, 'Não é permitido o uso de Crédito Presumido na NFC-e modelo 65'),
  item('UB120-20', 1175, 'Grupo de Crédito Presumido na Operação informado indevidamente'),
  item('UB122-10', 1055, 'Código de Crédito Presumido (cCredPres) da Operação inexistente'),
  item('UB123-10', 1053, 'Crédito Presumido para o IBS informado indevidamente'),
  item('UB123-20', 1054, 'Crédito Presumido para o IBS não informado'),
  item('UB125-10', 1107, 'Valor do Crédito Presumido do IBS não pode ser superior a vProd'),
  item('UB126-10', 1056, 'Valor do Crédito Presumido em condição suspensiva do IBS informado indevidamente'),
  item('UB127-10', 1050, 'Crédito Presumido para a CBS informado indevidamente'),
  item('UB127-20', 1058, 'Crédito Presumido para a CBS não informado'),
  item('UB129-10', 1124, 'Valor do Crédito Presumido da CBS não pode ser superior a vProd'),
  // v1.31 prints two spaces after "Rejeição:"; the answer carries one.
  item('UB130-10', 1060, 'Valor do Crédito Presumido da CBS informado indevidamente'),
  // VB: the item's total
  item('VB01-05', 1137, 'Valor total do Item (vItem) não informado'),
  item('VB01-10', 1105, 'Valor total do Item (vItem) difere do somatório dos valores que o compõem'),
  // W03: IBSCBSTot and vNFTot
  note('W34-10', 1118, 'Total de IBS e CBS informado indevidamente'),
  note('W34-20', 1119, 'Total de IBS e CBS não informado'),
  note('W35-10', 1076, 'Total da BC do IBS e da CBS difere da soma dos itens'),
  note('W38-10', 1077, 'Total de Diferimento do IBS UF difere da soma dos itens'),
  note('W39-10', 1078, 'Total Devolvido do IBS UF difere da soma dos itens'),
  note('W41-10', 1080, 'Total de IBS UF difere da soma dos itens'),
  note('W43-10', 1081, 'Total de Diferimento do IBS Municipal difere da soma dos itens'),
  note('W44-10', 1082, 'Total Devolvido do IBS Municipal difere da soma dos itens'),
  note('W46-10', 1084, 'Total de IBS Municipal difere da soma dos itens'),
  note('W47-10', 1085, 'Total do IBS difere da soma do vIBS dos itens'),
  note('W48-10', 1086, 'Total de Crédito Presumido do IBS UF difere da soma dos itens'),
  note('W53-10', 1088, 'Total de Diferimento da CBS difere da soma dos itens'),
  note('W54-10', 1089, 'Total Devolvido da CBS difere da soma dos itens'),
  note('W56-10', 1091, 'Total de CBS difere da soma dos itens'),
  note('W56a-10', 1087, 'Total de Crédito Presumido da CBS difere da soma dos itens'),
  note('W60-05', 1004, 'Valor total da NF-e com IBS / CBS / IS (vNFTot) não informado'),
  note('W60-10', 1094, 'Total da NFe difere da soma do total dos itens da Nota'),
];

const byId = new Map(REFORM_RULES.map((r) => [r.id, r]));

/** The row of a rule id (throws on an id not transcribed: a typo in a registry is a bug, not a rule). */
export function reformRule(id: string): ReformRule {
  const r = byId.get(id);
  if (!r) throw new Error(`NT 2025.002 rule ${id} is not in reform-rule-table.ts`);
  return r;
}
