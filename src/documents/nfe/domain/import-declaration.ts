import { Type, type Static } from 'typebox';
import { toCents } from '../../../kernel/decimal.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import type { DiModel, IiModel } from '../../../fiscal/xml/nfe/import-model.js';

// items[].import_declarations and items[].import_tax of an NF-e: prod/DI (with its adi additions) and
// imposto/II of leiauteNFe_v4.00.xsd, the goods of an import (CFOP 3xxx, an entry note from a supplier
// abroad). Types, lengths and maximum occurrences are the XSD's; the rules they meet (MOC I08-110,
// I08-130, I23-10, I23b-10, I23d-10, I23e-10, I29a-10, W11-10, W16-10) are in
// docs/fiscal/vehicles-and-foreign-trade.md.

/** TUfEmi: a Brazilian state, never EX. */
const UF = '^(AC|AL|AM|AP|BA|CE|DF|ES|GO|MA|MG|MS|MT|PA|PB|PE|PI|PR|RJ|RN|RO|RR|RS|SC|SE|SP|TO)$';
/** TData: AAAA-MM-DD. */
const DATE = '^(((20(([02468][048])|([13579][26]))-02-29))|(20[0-9][0-9])-((((0[1-9])|(1[0-2]))-((0[1-9])|(1\\d)|(2[0-8])))|((((0[13578])|(1[02]))-31)|(((0[1,3-9])|(1[0-2]))-(29|30)))))$';
/** TDec_1302: up to 13 integer digits, 2 decimals. */
const MONEY = { minimum: 0, maximum: 9999999999999.99 };

export const ImportAdditionSchema = Type.Object(
  {
    number: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'nAdicao: the number of the addition (1-999).', examples: ['1'] })),
    sequence: Type.String({ pattern: '^[1-9][0-9]{0,4}$', description: 'nSeqAdic: the item\'s sequence number inside the addition (1-99999).', examples: ['1'] }),
    manufacturer_code: Type.String({ minLength: 1, maxLength: 60, description: 'cFabricante: the foreign manufacturer\'s code (1-60 characters).', examples: ['FAB-0001'] }),
    discount: Type.Optional(Type.Number({ ...MONEY, minimum: 0.01, description: 'vDescDI: the discount of the item in the addition, in reais (TDec_1302Opc: greater than zero, so 0.01 at least).', examples: [10] })),
    drawback: Type.Optional(
      Type.String({ minLength: 1, maxLength: 20, description: 'nDraw: the drawback concession act (1-20 characters); required in every addition with CFOP 3127 and 3211 (MOC I29a-10, 334).', examples: ['20230001234'] }),
    ),
  },
  { additionalProperties: false, description: 'adi: one addition of the import declaration covering the item.' },
);

export const ImportDeclarationSchema = Type.Object(
  {
    number: Type.String({ minLength: 1, maxLength: 15, description: 'nDI: the number of the import declaration (DI, DSI, DIRE or DUIMP), 1-15 characters.', examples: ['2412345678'] }),
    registered_on: Type.String({ pattern: DATE, description: 'dDI: the registration date of the declaration, YYYY-MM-DD.', examples: ['2026-06-01'] }),
    clearance_place: Type.String({ minLength: 1, maxLength: 60, description: 'xLocDesemb: where the customs clearance took place (1-60 characters).', examples: ['PORTO DE SANTOS'] }),
    clearance_uf: Type.String({ pattern: UF, description: 'UFDesemb: the state of the customs clearance (two letters; EX is not accepted).', examples: ['SP'] }),
    cleared_on: Type.String({ pattern: DATE, description: 'dDesemb: the date of the customs clearance, YYYY-MM-DD; not in the future nor more than 5 years back (MOC I23-10, 376).', examples: ['2026-06-05'] }),
    transport_mode: Type.Enum(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13'], {
      description: 'tpViaTransp: the international transport mode: 1 sea, 2 river, 3 lake, 4 air, 5 post, 6 rail, 7 road, 8 pipeline, 9 own means, 10 fictitious entry, 11 courier, 12 in hand, 13 towed.',
      examples: ['1'],
    }),
    afrmm: Type.Optional(Type.Number({ ...MONEY, description: 'vAFRMM: the merchant marine renewal surcharge (AFRMM), in reais; required by sea (transport_mode 1, MOC I23b-10, 330).', examples: [25] })),
    intermediation: Type.Enum(['1', '2', '3'], {
      description: 'tpIntermedio: 1 import on the issuer\'s own account, 2 on behalf of a buyer (conta e ordem), 3 to order (encomenda); 2 and 3 need the buyer\'s cnpj or cpf (MOC I23d-10, 331) and third_party_uf (MOC I23e-10, 333).',
      examples: ['1'],
    }),
    buyer_cnpj: Type.Optional(Type.String({ pattern: '^[0-9]{14}$', description: 'CNPJ: the buyer on whose behalf or to whose order the goods are imported (14 digits, valid check digits, MOC I23d-20, 332).', examples: ['11222333000181'] })),
    buyer_cpf: Type.Optional(Type.String({ pattern: '^[0-9]{11}$', description: 'CPF: the buyer when a person (11 digits); give cnpj or cpf, not both.', examples: ['52998224725'] })),
    third_party_uf: Type.Optional(Type.String({ pattern: UF, description: 'UFTerceiro: the state of the buyer (two letters).', examples: ['SP'] })),
    exporter_code: Type.String({ minLength: 1, maxLength: 60, description: 'cExportador: the exporter\'s code (1-60 characters).', examples: ['EXP-0001'] }),
    additions: Type.Array(ImportAdditionSchema, { minItems: 1, maxItems: 999, description: 'adi: the additions of the declaration covering the item (1-999).' }),
  },
  { additionalProperties: false, description: 'DI: an import declaration covering the item (prod/DI).' },
);

export const ImportDeclarationsSchema = Type.Array(ImportDeclarationSchema, {
  minItems: 1,
  maxItems: 100,
  description: 'prod/DI (1-100): the import declarations of an imported item; required with an import CFOP (3xxx) but 3201, 3202, 3503 and 3553 (MOC I08-110, 525).',
});

export const ImportTaxSchema = Type.Object(
  {
    base: Type.Number({ ...MONEY, description: 'vBC: the base of the import tax (II), in reais.', examples: [1000] }),
    customs_expenses: Type.Number({ ...MONEY, description: 'vDespAdu: the customs expenses, in reais.', examples: [50] }),
    value: Type.Number({ ...MONEY, description: 'vII: the import tax (II), in reais; summed into total vII and into the note total vNF (MOC W11-10, W16-10).', examples: [140] }),
    iof: Type.Number({ ...MONEY, description: 'vIOF: the tax on financial operations (IOF) of the import, in reais.', examples: [0] }),
  },
  { additionalProperties: false, description: 'imposto/II: the import tax of an imported item; required with an import CFOP (3xxx) but 3201, 3202, 3211, 3503 and 3553 (MOC I08-130, 599).' },
);

export type ImportDeclaration = Static<typeof ImportDeclarationSchema>;
export type ImportTax = Static<typeof ImportTaxSchema>;

/** The DI model of a declaration, money in cents, text in the layout's characters. */
export function diOf(d: ImportDeclaration): DiModel {
  const out: DiModel = {
    nDI: layoutText(d.number),
    dDI: d.registered_on,
    xLocDesemb: layoutText(d.clearance_place),
    UFDesemb: d.clearance_uf,
    dDesemb: d.cleared_on,
    tpViaTransp: d.transport_mode,
    tpIntermedio: d.intermediation,
    cExportador: layoutText(d.exporter_code),
    adi: d.additions.map((a) => {
      const adi: DiModel['adi'][number] = { nSeqAdic: a.sequence, cFabricante: layoutText(a.manufacturer_code) };
      if (a.number !== undefined) adi.nAdicao = a.number;
      if (a.discount !== undefined) adi.vDescDI = toCents(a.discount);
      if (a.drawback !== undefined) adi.nDraw = layoutText(a.drawback);
      return adi;
    }),
  };
  if (d.afrmm !== undefined) out.vAFRMM = toCents(d.afrmm);
  if (d.buyer_cnpj !== undefined) out.CNPJ = d.buyer_cnpj;
  if (d.buyer_cpf !== undefined) out.CPF = d.buyer_cpf;
  if (d.third_party_uf !== undefined) out.UFTerceiro = d.third_party_uf;
  return out;
}

/** The II model of an item, money in cents. */
export const iiOf = (t: ImportTax): IiModel => ({ vBC: toCents(t.base), vDespAdu: toCents(t.customs_expenses), vII: toCents(t.value), vIOF: toCents(t.iof) });
