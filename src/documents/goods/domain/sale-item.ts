import { Type, type Static } from 'typebox';
import { FuelSchema } from './fuel-item.js';
import { IcmsMonoSchema } from './icms-mono-item.js';
import { BatchesSchema, MedicineSchema } from './medicine-item.js';
import { CARD_BRANDS, PAYMENT_METHODS, type CardBrand, type PaymentMethod } from '../../../fiscal/layout/payment-codes.js';

const METHOD_NAMES = Object.keys(PAYMENT_METHODS) as PaymentMethod[];
const BRAND_NAMES = Object.keys(CARD_BRANDS) as CardBrand[];

// The parts of a goods sale that models 55 and 65 share: an item with its taxes, a payment, an address.
// docs/guides/api.md field names are kept exactly (camelCase vBC, pICMS); every field we added is snake_case.

const money = (description: string, example: number) =>
  Type.Number({ description: `${description} Reais, at most 2 decimals.`, examples: [example] });
const rate = (description: string, example: number) =>
  Type.Number({ description: `${description} Percent (12.5 = 12.5%), at most 4 decimals.`, examples: [example] });

export const StSchema = Type.Object(
  {
    modality: Type.Optional(Type.Integer({ description: 'modBCST: 0 tabulated price, 1 negative list, 2 positive list, 3 neutral list, 4 MVA (default), 5 pauta, 6 operation value.', minimum: 0, maximum: 6, examples: [4] })),
    mva: Type.Optional(rate('pMVAST: added value margin.', 40)),
    base_reduction: Type.Optional(rate('pRedBCST: reduction of the ST base.', 0)),
    base: Type.Optional(money('vBCST: ST base; computed from the item value, MVA and reduction when omitted.', 140)),
    rate: rate('pICMSST: ICMS rate of the destination operation.', 18),
    fcp_rate: Type.Optional(rate('pFCPST: poverty fund rate on the ST base.', 2)),
  },
  { additionalProperties: false, description: 'ICMS tax substitution charged in this sale (NF-e: CST 10/30/70/90, CSOSN 201/202/203/900). An NFC-e accepts only CST 90 and CSOSN 900 with it: CST 10/30/70 and CSOSN 201/202/203 are refused (MOC N12-30, 766; N12a-20, 383).' },
);

export const StRetainedSchema = Type.Object(
  {
    base: money('vBCSTRet: ST base retained earlier.', 100),
    rate: rate('pST: final-consumer rate (ICMS + FCP) used earlier.', 18),
    substitute_amount: Type.Optional(money('vICMSSubstituto: own ICMS of the substitute.', 8)),
    amount: money('vICMSSTRet: ST retained earlier.', 10),
  },
  { additionalProperties: false, description: 'ST already charged earlier in the chain (CST 60, CSOSN 500).' },
);

const pisCofins = (name: string) =>
  Type.Object(
    {
      cst: Type.String({ description: `${name} CST (01, 02, 04-09, 49-99).`, pattern: '^[0-9]{2}$', examples: ['01'] }),
      rate: Type.Optional(rate(`${name} rate on the item value (CST 01, 02 and 49-99).`, 0.65)),
    },
    { additionalProperties: false, description: `${name}; default: CST 49 with zero values for Simples Nacional, CST 01 at the cumulative rate for regime normal. PIS and COFINS end with 2026 (ADCT art. 126 II b, LC 214/2025 art. 542): a sale prepared in 2027 or later must leave it out (422 otherwise), and a note dated 2027 or later charges neither (NFC-e: no group; NF-e: CST 08).` },
  );

export const ReformSchema = Type.Object(
  {
    cst: Type.Optional(Type.String({ description: 'IBS/CBS CST (3 digits), default 000 (regular taxation), or 410 (immunity) for an export (CFOP 7xxx).', pattern: '^[0-9]{3}$', examples: ['000'] })),
    class_code: Type.Optional(Type.String({ description: 'cClassTrib (6 digits), default 000001, or 410004 (exports of goods and services, LC 214/2025 art. 8) for an export (CFOP 7xxx).', pattern: '^[0-9]{6}$', examples: ['000001'] })),
    ibs_state_rate: Type.Optional(rate('pIBSUF, default the rate of the note\'s year (0.10 in 2026, 0.05 in 2027 and 2028: LC 214/2025 arts. 343, 344); another one is refused.', 0.1)),
    ibs_municipal_rate: Type.Optional(rate('pIBSMun, default the rate of the note\'s year (0 in 2026, 0.05 in 2027 and 2028); another one is refused.', 0)),
    cbs_rate: Type.Optional(rate('pCBS, default the rate of the note\'s year (0.90 in 2026, LC 214/2025 art. 346); required from 2027 while the reference rate of art. 347 is not published.', 0.9)),
    rate_reduction: Type.Optional(rate('pRedAliq: the reduction of the IBS and CBS rates in percent (gRed). The cClassTrib fixes it (its pRedIBS / pRedCBS in the classification table, e.g. 60 for 200030, LC 214/2025 Anexo IV), so it may be left out; one sent must agree. Each tax is charged at rate x (1 - pRedAliq/100).', 60)),
    deferral_rate: Type.Optional(rate('pDif: the share of each tax deferred (gDif), required with a CST whose indicator ind_gDif is 1 (510, 515: NF-e only) and refused with any other. The classification table fixes no percentage, so the client sends it; the same pDif is written for the IBS UF, IBS Mun and CBS. vDif = vBC x rate x pDif/100 (the effective rate with gRed) and the tax due is the rest (NT 2025.002-RTC UB23-10, UB35-10).', 100)),
    regular_taxation: Type.Optional(
      Type.Object(
        {
          cst: Type.String({ pattern: '^[0-9]{3}$', description: 'CSTReg: the CST that applies if the suspensive condition is not met (a CST with rates, e.g. 000 or 200).', examples: ['000'] }),
          class_code: Type.String({ pattern: '^[0-9]{6}$', description: 'cClassTribReg: its cClassTrib, of that CST.', examples: ['000001'] }),
        },
        { additionalProperties: false, description: 'gTribRegular: how the item would be taxed if the condition of the suspension is not met. Required with a cClassTrib whose ind_gTribRegular is 1 (the CST 550 suspensions, e.g. 550001 exports of goods, LC 214/2025 art. 82), refused with any other; the item\'s own rates are then 0 (NT 2025.002-RTC UB18-10, UB37-10, UB56-10 exception) and the gateway writes the regular rates of the note\'s year and their values (UB72-10).' },
      ),
    ),
    presumed_credit: Type.Optional(
      Type.Object(
        {
          code: Type.String({ pattern: '^[0-9]{2}$', description: 'cCredPres (2 digits) of the presumed credit table (NT 2025.002-RTC Anexo IV, revision 12/12/2025), e.g. 05 automotive regime of LC 214/2025 art. 311. The code must be one the table lets the note carry (Apropria via NF? 1) and in force on the note\'s date for each tax it credits (from 2027).', examples: ['05'] }),
          base: Type.Optional(money('vBCCredPres: the base of the presumed credit; default the item value net of discount (vProd - vDesc).', 3000)),
          ibs_rate: Type.Optional(rate('pCredPres of gIBSCredPres: required when the code credits the IBS (its ind_gIBSCredPres is 1), refused otherwise (UB123-10/20).', 1.3)),
          cbs_rate: Type.Optional(rate('pCredPres of gCBSCredPres: required when the code credits the CBS (its ind_gCBSCredPres is 1), refused otherwise (UB127-10/20). For code 05 LC 214/2025 art. 311 gives 11.60, 10 or 8.70 by month of the benefit.', 11.6)),
        },
        { additionalProperties: false, description: 'gCredPresOper (NT 2025.002-RTC UB120): the presumed credit the issuer takes on this item, NF-e only (an NFC-e is refused, UB120-10), with a cClassTrib whose ind_gCredPresOper is 1 (e.g. 000003, 000004; UB120-20). vCredPres = base x rate, per tax.' },
      ),
    ),
    credit_transfer: Type.Optional(
      Type.Object(
        {
          ibs: money('gTransfCred/vIBS: the IBS credit transferred.', 150),
          cbs: money('gTransfCred/vCBS: the CBS credit transferred.', 1350),
        },
        { additionalProperties: false, description: 'gTransfCred (NT 2025.002-RTC UB106): CST 800 only, on a debit note (finalidade debito) of debit_type 01 (cooperatives, cClassTrib 800002) or 05 (succession, 800001); one of the two values above zero (UB106-40).' },
      ),
    ),
    selective_tax: Type.Optional(
      Type.Object(
        {
          cst: Type.String({ pattern: '^[0-9]{3}$', description: 'CSTIS.', examples: ['000'] }),
          class_code: Type.String({ pattern: '^[0-9]{6}$', description: 'cClassTribIS.', examples: ['000001'] }),
          rate: rate('pIS.', 1),
        },
        { additionalProperties: false, description: 'Imposto Seletivo (IS), only for the goods LC 214/2025 lists.' },
      ),
    ),
  },
  { additionalProperties: false, description: 'Tax reform (IBS/CBS/IS): written in 2026 when the account taxRegime is reform_2026, on every note dated from 2027.' },
);

export const SaleItemSchema = Type.Object(
  {
    description: Type.String({ description: 'xProd, 1-120 characters (Latin-1).', examples: ['Cafe torrado 500g'] }),
    quantity: Type.Number({ description: 'qCom, > 0, at most 4 decimals.', examples: [2] }),
    unit_price: Type.Number({ description: 'vUnCom in reais, > 0, at most 10 decimals.', examples: [18.9] }),
    ncm: Type.String({ description: 'NCM, 8 digits.', examples: ['09012100'] }),
    cfop: Type.String({ description: 'CFOP of an in-state consumer sale (5xxx), e.g. 5102 resale, 5405 resale under ST.', examples: ['5102'] }),
    unit: Type.String({ description: 'uCom, 1-6 characters.', examples: ['UN'] }),
    cst_icms: Type.Optional(Type.String({ description: 'CST (2 digits) for regime-normal issuers; CSOSN (3 digits) for Simples Nacional ones.', examples: ['00', '102'] })),
    csosn: Type.Optional(Type.String({ description: 'Alias of cst_icms for Simples Nacional issuers.', examples: ['102'] })),
    vBC: Type.Optional(money('ICMS base; defaults to the item value net of discount (reduced by icms_base_reduction).', 37.8)),
    pICMS: Type.Optional(rate('ICMS rate of the own operation. Required with CSOSN 201/202/203: the internal (or, to another state, interstate) rate whose ICMS the ST charged deducts (docs/fiscal/icms-st.md).', 18)),
    code: Type.Optional(Type.String({ description: 'cProd, your product code (1-60); defaults to the item position.', examples: ['SKU-123'] })),
    gtin: Type.Optional(Type.String({ description: 'cEAN: GTIN-8/12/13/14 or "SEM GTIN" (default).', examples: ['7891000315507'] })),
    cest: Type.Optional(Type.String({ description: 'CEST, 7 digits (goods under ST).', examples: ['1700100'] })),
    benefit_code: Type.Optional(Type.String({
      maxLength: 10,
      description: "cBenef: the tax-benefit code of the issuer's state table (8 or 10 characters, or \"SEM CBENEF\"), for the CSTs the state asks it for (docs/fiscal/cbenef.md).",
      examples: ['RS052001'],
    })),
    discount: Type.Optional(money('Item discount (vDesc).', 1.5)),
    origin: Type.Optional(Type.Integer({ description: 'orig: 0 national ... 8; default 0.', minimum: 0, maximum: 8, examples: [0] })),
    icms_base_reduction: Type.Optional(rate('pRedBC (CST 20/70/90, CSOSN 900).', 33.33)),
    fcp_rate: Type.Optional(rate('pFCP: poverty fund rate on the ICMS base.', 2)),
    st: Type.Optional(StSchema),
    st_retained: Type.Optional(StRetainedSchema),
    simples_credit_rate: Type.Optional(rate('pCredSN: ICMS credit rate a Simples issuer may pass on (CSOSN 101, 201, 900).', 1.25)),
    pis: Type.Optional(pisCofins('PIS')),
    cofins: Type.Optional(pisCofins('COFINS')),
    reform: Type.Optional(ReformSchema),
    approximate_taxes: Type.Optional(money('Approximate taxes of the item (Lei 12.741/2012, vTotTrib).', 5.2)),
    additional_info: Type.Optional(Type.String({ description: 'infAdProd, up to 500 characters.' })),
    fuel: Type.Optional(FuelSchema),
    icms_mono: Type.Optional(IcmsMonoSchema),
    medicine: Type.Optional(MedicineSchema),
    batches: Type.Optional(BatchesSchema),
  },
  { additionalProperties: false },
);

export const PaymentSchema = Type.Object(
  {
    method: Type.Enum(METHOD_NAMES, { description: 'Payment method (mapped to tPag).', examples: ['credito'] }),
    amount: money('Amount paid with this method; cash may exceed the total (change).', 50),
    card_brand: Type.Optional(Type.Enum(BRAND_NAMES, { description: 'Card brand (tBand).', examples: ['visa'] })),
    card_authorization: Type.Optional(Type.String({ description: 'cAut: authorization code of the card/PIX transaction (1-128).', examples: ['A1B2C3'] })),
    acquirer_cnpj: Type.Optional(Type.String({ description: 'CNPJ of the payment institution (card/CNPJ).', examples: ['01027058000191'] })),
    integrated: Type.Optional(Type.Boolean({ description: 'tpIntegra: true when the payment went through software integrated with the POS (TEF); default false.' })),
    description: Type.Optional(Type.String({ description: 'xPag: what the tender was; required for, and only used with, method outros (2-60).', examples: ['Permuta'] })),
  },
  { additionalProperties: false },
);

export const AddressSchema = Type.Object(
  {
    street: Type.String({ description: 'xLgr (2-60).' }),
    number: Type.String({ description: 'nro (1-60).' }),
    complement: Type.Optional(Type.String({ description: 'xCpl (1-60).' })),
    district: Type.String({ description: 'xBairro (2-60).' }),
    city_code: Type.String({ description: 'IBGE municipality code, 7 digits.', examples: ['3550308'] }),
    city: Type.String({ description: 'Municipality name.', examples: ['Sao Paulo'] }),
    uf: Type.String({ description: 'Two-letter state.', examples: ['SP'] }),
    cep: Type.Optional(Type.String({ description: 'CEP, 8 digits.' })),
    phone: Type.Optional(Type.String({ description: 'Digits only, 6-14.' })),
  },
  { additionalProperties: false },
);

export type SaleItem = Static<typeof SaleItemSchema>;
export type SalePayment = Static<typeof PaymentSchema>;
export type SaleAddress = Static<typeof AddressSchema>;

/** The lines of a sale that the item and total computations read (either family's request has them). */
export interface SaleLines {
  items: SaleItem[];
  discount?: number;
  approximate_taxes?: number;
}

/** The payment fields of a sale: one tender or a split. */
export interface SaleTenders {
  payment?: SalePayment;
  payments?: SalePayment[];
}
