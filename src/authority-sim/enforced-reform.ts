// Which NT 2025.002-RTC reform rules (reform-rule-table.ts) the simulator enforces and where, and why the others
// are not (docs/fiscal/reform-rules.md). Kept apart from enforced-rules.ts: these rules are not rows of the
// MOC 7.0 Anexo I table, so they do not count in the README's coverage figure. reform-rules.test.ts checks
// that every row of the table is in exactly one of the two lists and that each enforced rule is refused.

export interface EnforcedReformRule {
  rule: string;
  code: number;
  where: string;
  /** Reads the official tables (CST indicators, cClassTrib) of fiscal/reform. */
  tables?: true;
}

const ITEM = 'authority-sim/reform-item-rules.ts';
const NOTE = 'authority-sim/reform-rules.ts';
const CREDITS = 'authority-sim/reform-credit-rules.ts';
const rows = (where: string, list: readonly (readonly [string, number])[], tables?: true): EnforcedReformRule[] =>
  list.map(([rule, code]) => ({ rule, code, where, ...(tables ? { tables } : {}) }));

export const ENFORCED_REFORM_RULES: readonly EnforcedReformRule[] = [
  ...rows(NOTE, [['UB12-10', 1115]]),
  // group presence by the CST's indicators, classification against the CST and the model
  ...rows(ITEM, [['UB13-10', 1020], ['UB13-20', 1021], ['UB13-30', 1022], ['UB13-39', 1151], ['UB13-40', 1116], ['UB13-44', 1131], ['UB13-45', 1132]], true),
  ...rows(ITEM, [['UB14-10', 1023], ['UB14-20', 1024], ['UB14-25', 1025]], true),
  // rates of the year (the classification's regular-taxation indicator only relaxes them)
  ...rows(ITEM, [['UB18-10', 1026], ['UB37-10', 1036], ['UB56-10', 1037]]),
  // deferral and rate reduction by the CST's indicators; the reduction of the classification
  ...rows(ITEM, [['UB22-10', 1029], ['UB22-20', 1030], ['UB40-20', 1083], ['UB40-10', 1044], ['UB59-20', 1090], ['UB59-10', 1061]], true),
  ...rows(ITEM, [['UB26-10', 1032], ['UB26-20', 1033], ['UB45-10', 1007], ['UB45-20', 1074], ['UB64-10', 1028], ['UB64-20', 1079]], true),
  ...rows(ITEM, [['UB27-10', 1034], ['UB46-10', 1046], ['UB65-10', 1063], ['UB68-10', 1065], ['UB68-11', 1114]], true),
  // the regular taxation (gTribRegular) of a suspension: its codes in the tables, its values
  ...rows('authority-sim/reform-regular-rules.ts', [['UB69-10', 1066], ['UB70-10', 1067]], true),
  ...rows('authority-sim/reform-regular-rules.ts', [['UB72-10', 1040], ['UB72b-10', 1051], ['UB72d-10', 1068]]),
  // arithmetic of the item
  ...rows(ITEM, [['UB23-10', 1031], ['UB42-10', 1045], ['UB61-10', 1062], ['UB28-10', 1035], ['UB47-10', 1047], ['UB66-10', 1064]]),
  ...rows(ITEM, [['UB35-10', 1041], ['UB54-10', 1052], ['UB54a-10', 1150], ['UB67-10', 1069]]),
  // government purchase, credit transfer, presumed credit (reform-credit-rules.ts)
  ...rows(CREDITS, [['B31-10', 1006], ['B32-10', 1008], ['B34-10', 1140], ['UB82a-10', 1141], ['UB82a-20', 1142], ['UB82a-30', 1144]]),
  ...rows(CREDITS, [['UB106-31', 1168], ['UB106-40', 1129]]),
  ...rows(CREDITS, [['UB120-10', 1049], ['UB120-20', 1175], ['UB122-10', 1055], ['UB123-10', 1053], ['UB123-20', 1054], ['UB125-10', 1107]], true),
  ...rows(CREDITS, [['UB126-10', 1056], ['UB127-10', 1050], ['UB127-20', 1058], ['UB129-10', 1124], ['UB130-10', 1060]], true),
  // IBSCBSTot
  ...rows(NOTE, [['W34-10', 1118], ['W34-20', 1119], ['W35-10', 1076], ['W38-10', 1077], ['W39-10', 1078], ['W41-10', 1080], ['W43-10', 1081]]),
  ...rows(NOTE, [['W44-10', 1082], ['W46-10', 1084], ['W47-10', 1085], ['W48-10', 1086], ['W53-10', 1088], ['W54-10', 1089], ['W56-10', 1091], ['W56a-10', 1087]]),
];

/** The table's rows the simulator does not play, by reason. */
export const REFORM_NOT_ENFORCED: Readonly<Record<string, { why: string; rules: readonly string[] }>> = {
  'future-implementation': {
    why: 'the NT marks the rule "Implementação Futura" (UB16-10: "aguardando orientação normativa"): the authority does not apply it yet',
    rules: ['UB16-10', 'VB01-05', 'VB01-10', 'W60-05', 'W60-10'],
  },
  'adjustment-notes': {
    why: 'played with the other rules of the credit and debit notes (finNFe 5/6) in adjustment-note-rules.ts (1133), before the reform rules',
    rules: ['UB106-30'],
  },
};
