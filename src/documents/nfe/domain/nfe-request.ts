import { Type, type Static } from 'typebox';
import { BuyerEmailOptionSchema } from '../../../kernel/buyer-email-option.js';
import { OWN_SERIES_MAX, OWN_SERIES_MIN } from '../../../fiscal/layout/series-range.js';
import { PaymentSchema, SaleItemSchema } from '../../goods/domain/sale-item.js';
import { ExportDetailSchema } from './export-detail.js';
import { VehicleSchema } from './vehicle.js';
import { ImportDeclarationsSchema, ImportTaxSchema } from './import-declaration.js';
import { CarrierSchema, FreightModeSchema, MODALIDADES_FRETE } from '../../goods/domain/transport.js';

export { MODALIDADES_FRETE };

// The NF-e (model 55) creation request. It reuses the NFC-e item and payment schemas (same docs/guides/api.md
// names: vBC, pICMS; additions snake_case) and adds what model 55 has: operation nature and
// purpose, a mandatory recipient, IPI and DIFAL per item, freight, billing and XML downloaders.
// idDest (internal, interstate, abroad) and tpNF (inbound/outbound) are derived, never asked for.

const money = (description: string, example: number) =>
  Type.Number({ description: `${description} Reais, at most 2 decimals.`, examples: [example] });
const rate = (description: string, example: number) =>
  Type.Number({ description: `${description} Percent (12.5 = 12.5%), at most 4 decimals.`, examples: [example] });

export const FINALIDADES = { normal: 1, complementar: 2, ajuste: 3, devolucao: 4, credito: 5, debito: 6 } as const;
/** tpNFCredito (TTpNFCredito, PL_010 v1.40) and tpNFDebito (TTpNFDebito): the codes the XSD admits. */
export const CREDIT_TYPES = ['01', '02', '03', '04', '05', '06'] as const;
export const DEBIT_TYPES = ['01', '02', '03', '04', '05', '06', '07', '08'] as const;
export const PRESENCAS = { nao_se_aplica: 0, presencial: 1, internet: 2, telefone: 3, presencial_fora: 5, outros: 9 } as const;
export const INDICADORES_IE = { contribuinte: 1, isento: 2, nao_contribuinte: 9 } as const;

const keysOf = <T extends object>(o: T) => Object.keys(o) as Array<keyof T & string>;

export const IpiSchema = Type.Object(
  {
    cst: Type.String({ description: 'IPI CST: 00, 49, 50, 99 (taxed, IPITrib) or 01-05, 51-55 (not taxed, IPINT).', pattern: '^[0-9]{2}$', examples: ['50'] }),
    enquadramento: Type.Optional(Type.String({ description: 'cEnq, legal framework code (1-3 characters); default 999. Required with CST 02/52 (exemption: 301-399), 04/54 (immunity: 001-099) and 05/55 (suspension: 101-199), MOC O09-10.', examples: ['999'] })),
    rate: Type.Optional(rate('pIPI (IPITrib CSTs only).', 5)),
    base: Type.Optional(money('vBC of the IPI; default: item value net of discount plus its freight, insurance and other expenses.', 100)),
  },
  { additionalProperties: false, description: 'IPI of the item (model 55).' },
);

export const DifalSchema = Type.Object(
  {
    destination_rate: rate('pICMSUFDest: internal ICMS rate of the destination state.', 18),
    fcp_rate: Type.Optional(rate('pFCPUFDest: poverty fund rate of the destination state.', 2)),
    base: Type.Optional(money('vBCUFDest; default: item value net of discount plus freight, insurance, other expenses and IPI.', 100)),
  },
  {
    additionalProperties: false,
    description: 'ICMSUFDest (DIFAL, NT 2015.003): required in an interstate sale to a non-taxpayer final consumer; the interstate rate (4/7/12%) is derived from the origin and the states.',
  },
);

export const IcmsPartilhaSchema = Type.Object(
  {
    operation_base_share: rate('pBCOp: share of the value that makes the base of the own operation, as the legislation sets it (Convenio ICMS 51/00 for vehicles); give vBC accordingly.', 45.08),
    uf_st: Type.String({ description: 'UFST: two-letter state to which the ICMS-ST of the operation is due (e.g. the dealer\'s state), or EX.', examples: ['MG'] }),
  },
  {
    additionalProperties: false,
    description: 'ICMSPart (MOC N10a): interstate sale to a final consumer with the ICMS split between the origin state and the destination or legal state; CST 10 or 90 with pICMS and st. Replaces DIFAL for such items (MOC NA01).',
  },
);

export const StRepasseSchema = Type.Object(
  {
    destination_base: money('vBCSTDest: ICMS-ST base of the destination state.', 120),
    destination_amount: money('vICMSSTDest: ICMS-ST due to the destination state.', 21.6),
    retained_fcp: Type.Optional(
      Type.Object(
        {
          base: money('vBCFCPSTRet: base of the FCP retained earlier by ST.', 120),
          rate: rate('pFCPSTRet: rate of the FCP retained earlier by ST.', 2),
          amount: money('vFCPSTRet: FCP retained earlier by ST (added to the note\'s vFCPSTRet).', 2.4),
        },
        { additionalProperties: false, description: 'FCP retained earlier by ST (N27.1).' },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'ICMSST (MOC N10b): interstate operation with goods whose ICMS-ST was retained earlier in the sender\'s state, repassed to the destination state; CST 41 or 60 with st_retained (vBCSTRet, pST, vICMSSTRet).',
  },
);

export const NfeItemSchema = Type.Object(
  {
    ...SaleItemSchema.properties,
    cfop: Type.String({ description: 'CFOP, 4 digits: 5xxx/1xxx internal, 6xxx/2xxx interstate, 7xxx/3xxx abroad (checked against the parties\' states).', examples: ['6102'] }),
    deferral_rate: Type.Optional(rate('pDif: deferred share of the ICMS (CST 51 with pICMS); default 100.', 100)),
    icms_relief: Type.Optional(
      Type.Object(
        {
          amount: money('vICMSDeson: the ICMS relieved (> 0).', 18),
          reason: Type.Integer({ description: 'motDesICMS: CST 20/70/90: 3, 9, 12; CST 30: 6, 9; CST 40/41/50: 1, 3, 4, 5, 6, 8, 9, 10, 11, 16, 90 (7, SUFRAMA, needs the recipient\'s ISUF: not offered).', examples: [9] }),
          deducted: Type.Optional(
            Type.Boolean({
              description: 'indDeduzDeson (NT 2023.004): true (default) when the relieved ICMS is taken off the price, so the note total vNF is reduced by it (indDeduzDeson 1); false when the relief is only informed and vNF keeps it (indDeduzDeson 0).',
              examples: [true],
            }),
          ),
        },
        { additionalProperties: false, description: 'ICMS relief (desoneração) of the item: vICMSDeson, motDesICMS and indDeduzDeson; subtracted from the note total only when deducted (MOC W16-10 as changed by NT 2023.004, docs/fiscal/icms-relief.md).' },
      ),
    ),
    ipi: Type.Optional(IpiSchema),
    difal: Type.Optional(DifalSchema),
    icms_partilha: Type.Optional(IcmsPartilhaSchema),
    st_repasse: Type.Optional(StRepasseSchema),
    export_detail: Type.Optional(ExportDetailSchema),
    vehicle: Type.Optional(VehicleSchema),
    import_declarations: Type.Optional(ImportDeclarationsSchema),
    import_tax: Type.Optional(ImportTaxSchema),
  },
  { additionalProperties: false },
);

export const NfeAddressSchema = Type.Object(
  {
    street: Type.String({ description: 'xLgr (2-60).' }),
    number: Type.String({ description: 'nro (1-60).' }),
    complement: Type.Optional(Type.String({ description: 'xCpl (1-60).' })),
    district: Type.String({ description: 'xBairro (2-60).' }),
    city_code: Type.Optional(Type.String({ description: 'IBGE municipality code, 7 digits (required in Brazil).', examples: ['3304557'] })),
    city: Type.String({ description: 'Municipality name (2-60).', examples: ['Rio de Janeiro'] }),
    uf: Type.Optional(Type.String({ description: 'Two-letter state (required in Brazil).', examples: ['RJ'] })),
    cep: Type.Optional(Type.String({ description: 'CEP, 8 digits.' })),
    country_code: Type.Optional(Type.String({ description: 'BACEN country code (1-4 digits); absent or 1058 = Brazil.', examples: ['2496'] })),
    country: Type.Optional(Type.String({ description: 'Country name (2-60), for an address abroad.', examples: ['Estados Unidos'] })),
    phone: Type.Optional(Type.String({ description: 'Digits only, 6-14.' })),
  },
  { additionalProperties: false },
);

export const DestinatarioSchema = Type.Object(
  {
    cnpj: Type.Optional(Type.String({ description: 'CNPJ, 14 characters (alphanumeric allowed).' })),
    cpf: Type.Optional(Type.String({ description: 'CPF, 11 digits.' })),
    id_estrangeiro: Type.Optional(Type.String({ description: 'Foreign recipient id (5-20 characters, or empty); required abroad.' })),
    name: Type.String({ description: 'xNome (2-60).' }),
    indicador_ie: Type.Enum(keysOf(INDICADORES_IE), { description: 'indIEDest: contribuinte (IE required), isento (no IE), nao_contribuinte.' }),
    ie: Type.Optional(Type.String({ description: 'State registration (2-14 digits), only for contribuinte; checked against the algorithm of the recipient state (MOC E17-50).' })),
    address: NfeAddressSchema,
    email: Type.Optional(Type.String({ description: 'E-mail (up to 60).' })),
  },
  { additionalProperties: false, description: 'dest: required in an NF-e (MOC E01-10, 719).' },
);

export const TransporteSchema = Type.Object(
  {
    modalidade: FreightModeSchema,
    transportadora: Type.Optional(CarrierSchema),
    veiculo: Type.Optional(
      Type.Object(
        { placa: Type.String({ description: 'Plate (AAA9999 or Mercosul AAA9A99).' }), uf: Type.Optional(Type.String()), rntc: Type.Optional(Type.String({ description: 'ANTT registration (1-20).' })) },
        { additionalProperties: false },
      ),
    ),
    volumes: Type.Optional(
      Type.Array(
        Type.Object(
          {
            quantity: Type.Optional(Type.Integer({ minimum: 0, description: 'qVol.' })), species: Type.Optional(Type.String({ description: 'esp (1-60).' })),
            brand: Type.Optional(Type.String({ description: 'marca (1-60).' })), numbering: Type.Optional(Type.String({ description: 'nVol (1-60).' })),
            net_weight: Type.Optional(Type.Number({ description: 'pesoL in kg, 3 decimals.' })), gross_weight: Type.Optional(Type.Number({ description: 'pesoB in kg, 3 decimals.' })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 5000 },
      ),
    ),
  },
  { additionalProperties: false, description: 'transp; absent = no freight (modFrete 9).' },
);

export const CobrancaSchema = Type.Object(
  {
    fatura: Type.Optional(
      Type.Object(
        { numero: Type.Optional(Type.String({ description: 'nFat (1-60); default the note number.' })), valor_original: money('vOrig.', 1000), desconto: Type.Optional(money('vDesc of the invoice.', 0)) },
        { additionalProperties: false, description: 'fat; default: the note total, no discount.' },
      ),
    ),
    duplicatas: Type.Optional(
      Type.Array(
        Type.Object({ vencimento: Type.String({ description: 'dVenc, YYYY-MM-DD, not before the previous one.', examples: ['2026-08-15'] }), valor: money('vDup, > 0.', 500) }, { additionalProperties: false }),
        { maxItems: 120, description: 'Installments (dup, numbered 001, 002, ...), at most 120; they add up to the invoice net value.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ExportSchema = Type.Object(
  {
    shipment_uf: Type.String({ description: 'UFSaidaPais (MOC ZA02): two-letter state where the goods are shipped or cross the border; not EX.', examples: ['SP'] }),
    shipment_place: Type.String({ description: 'xLocExporta (MOC ZA03): place of shipment or of border crossing (1-60), e.g. the port or airport.', examples: ['PORTO DE SANTOS'] }),
    dispatch_place: Type.Optional(Type.String({ description: 'xLocDespacho (MOC ZA04): place of customs dispatch, the bonded area (recinto alfandegado) (1-60).', examples: ['EADI SANTOS'] })),
  },
  {
    additionalProperties: false,
    description: 'exporta (MOC ZA01): required in an export, an outbound NF-e to a recipient abroad (CFOP 7xxx, idDest 3; MOC ZA01-10, 355); refused in any other NF-e (ZA01-20, 356).',
  },
);

export const NfeRequestSchema = Type.Object(
  {
    issuer_id: Type.String({ description: 'Issuer id (iss_...).' }),
    external_ref: Type.String({ description: 'Your own reference.' }),
    allow_duplicate_external_ref: Type.Optional(Type.Boolean({ description: 'Issue another document for this external_ref even when a live note of the issuer (processing, contingency or authorized) of this model holds it; without it that sale is refused with 409 duplicate_external_ref naming the note (details[0].note_id). A rejected, denied or canceled note does not hold it.', examples: [false] })),
    series: Type.Optional(Type.Integer({ minimum: OWN_SERIES_MIN, maximum: OWN_SERIES_MAX, description: "The issuer's series the sale is numbered in (0-889; GET/POST /v1/issuers/:id/series): one it opened and did not retire, else 422 on series. Default 1.", examples: [1] })),
    natureza_operacao: Type.String({ description: 'natOp (1-60), e.g. VENDA DE MERCADORIA.', examples: ['VENDA DE MERCADORIA'] }),
    finalidade: Type.Optional(Type.Enum(keysOf(FINALIDADES), { description: 'finNFe; default normal. credito (5, nota de crédito) and debito (6, nota de débito) are the IBS/CBS adjustment notes of the tax reform (NT 2025.002-RTC): they need the account taxRegime reform_2026 and carry IBS/CBS only (docs/fiscal/credit-debit-notes.md).' })),
    credit_type: Type.Optional(Type.Enum([...CREDIT_TYPES], { description: 'tpNFCredito, required with finalidade credito and refused otherwise: 01 multa e juros, 02 crédito presumido de IBS na ZFM, 03 retorno por recusa na entrega, 04 redução de valores, 05 transferência de crédito na sucessão, 06 retorno por recusa parcial. The gateway issues 03 and 04 (docs/fiscal/credit-debit-notes.md says why not the others yet).', examples: ['04'] })),
    debit_type: Type.Optional(Type.Enum([...DEBIT_TYPES], { description: 'tpNFDebito, required with finalidade debito and refused otherwise: 01 transferência de créditos para cooperativas, 02 anulação de crédito por saídas imunes/isentas, 03 débitos de notas não processadas, 04 multa e juros, 05 transferência de crédito na sucessão, 06 pagamento antecipado, 07 perda em estoque, 08 desenquadramento do Simples Nacional. The gateway issues 06, and 01 and 05 whose items carry CST 800 with reform.credit_transfer (gTransfCred; cClassTrib 800002 and 800001) (docs/fiscal/credit-debit-notes.md says why not the others yet).', examples: ['06'] })),
    referenced_documents: Type.Optional(Type.Array(Type.String({ description: 'Access key (44).' }), { maxItems: 999, description: 'NFref/refNFe; required for complementar (exactly 1), ajuste, devolucao and credito 01/03/04 (exactly 1: the note the credit adjusts).' })),
    government_purchase: Type.Optional(
      Type.Object(
        {
          entity_type: Type.Integer({ minimum: 1, maximum: 6, description: 'tpEnteGov: the public buyer (direct administration, its autarchies and foundations): 1 União, 2 Estado, 3 Distrito Federal, 4 Município, 5 consórcio público, 6 Comitê Gestor do IBS.', examples: [2] }),
        },
        {
          additionalProperties: false,
          description: 'gCompraGov (NT 2025.002-RTC B31; LC 214/2025 arts. 370, 472, 473): a sale to a public entity. The note carries gCompraGov {tpEnteGov, pRedutor, tpOperGov 1 (supply)} and each item gRed (pRedAliq the class reduction, 0 for CST 000) and gTribCompraGov. NF-e only; needs the IBS/CBS groups (taxReform reform_2026 in 2026). pRedutor is 0 in 2026 (the official calculator table); a purchase dated 2027 or later is refused with a 422 until the art. 370 reducer and the art. 473 transfer are implemented (docs/fiscal/tax-reform.md).',
        },
      ),
    ),
    destinatario: DestinatarioSchema,
    email: Type.Optional(BuyerEmailOptionSchema),
    presenca: Type.Enum(keysOf(PRESENCAS), { description: 'indPres (home delivery is NFC-e only).' }),
    intermediador: Type.Optional(
      Type.Object(
        {
          cnpj: Type.String({ description: 'CNPJ of the marketplace (intermediador).' }),
          id_cadastro: Type.String({ description: 'idCadIntTran: the seller\'s user or profile id at the marketplace (2-60).' }),
        },
        { additionalProperties: false, description: 'Sale through a third party\'s site or platform (indIntermed 1, infIntermed; NT 2020.006): only with presenca internet, telefone or outros.' },
      ),
    ),
    consumidor_final: Type.Optional(Type.Boolean({ description: 'indFinal; default true for a nao_contribuinte recipient, else false.' })),
    items: Type.Array(NfeItemSchema, { minItems: 1, maxItems: 990 }),
    discount: Type.Optional(money('Note-level discount, spread over the items.', 2)),
    freight: Type.Optional(money('vFrete charged, spread over the items.', 20)),
    insurance: Type.Optional(money('vSeg, spread over the items.', 5)),
    other_expenses: Type.Optional(money('vOutro (other charges), spread over the items.', 3)),
    approximate_taxes: Type.Optional(money('Approximate taxes (Lei 12.741/2012), spread over items that do not carry their own.', 12.3)),
    transporte: Type.Optional(TransporteSchema),
    export: Type.Optional(ExportSchema),
    cobranca: Type.Optional(CobrancaSchema),
    payment: Type.Optional(PaymentSchema),
    payments: Type.Optional(Type.Array(PaymentSchema, { minItems: 1, maxItems: 100 })),
    aut_xml: Type.Optional(Type.Array(Type.String({ description: 'CNPJ (14) or CPF (11).' }), { maxItems: 10, description: 'autXML: who may download the XML, up to 10.' })),
    additional_info: Type.Optional(Type.String({ description: 'infCpl (up to 5000).' })),
    fisco_info: Type.Optional(Type.String({ description: 'infAdFisco: information for the tax authority (up to 2000).' })),
  },
  { additionalProperties: false },
);

export type NfeRequest = Static<typeof NfeRequestSchema>;
export type NfeItem = Static<typeof NfeItemSchema>;
export type NfeDestinatario = Static<typeof DestinatarioSchema>;
export type NfeAddress = Static<typeof NfeAddressSchema>;
export type NfeExport = Static<typeof ExportSchema>;
