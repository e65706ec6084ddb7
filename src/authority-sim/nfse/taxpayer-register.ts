// The register Sefin Nacional writes the NFS-e's emit from: the provider's name and address as the
// CNPJ register (Receita Federal) holds them, not as the DPS states them (the DPS may omit the
// address, Anexo I E0128; docs/guides/sandbox.md). The simulator has no CNPJ register: in the
// sandbox the gateway feeds it what it knows of each issuer (sim-link.ts registerTaxpayer), per
// tenant (tenant.ts), so one account's issuer never names another account's.
import { municipality } from '../../fiscal/layout/ibge.js';

/** One taxpayer as the register holds it; the sizes are NFSe_v1.01 tiposSimples' (TCEmitente, TCEnderecoEmitente). */
export interface TaxpayerRecord {
  /** xNome (TSNomeRazaoSocial, 1-300): the legal name. */
  name: string;
  /** xFant (TSNomeFantasia, 1-150). */
  tradeName?: string | undefined;
  address?: {
    /** xLgr (1-255), nro (1-60), xCpl (1-156), xBairro (1-60). */
    street: string;
    number: string;
    complement?: string | undefined;
    district: string;
    /** cMun: IBGE municipality code (7 digits); UF follows from it. */
    municipalityCode: string;
    /** CEP: 8 digits. */
    postalCode: string;
  } | undefined;
}

const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.trim().length >= 1 && v.trim().length <= max ? v.trim() : undefined);

/** The record from its JSON (the admin API's body), or the reason it is not one. */
export function taxpayerRecordOf(b: Record<string, unknown>): TaxpayerRecord | string {
  const name = text(b.name, 300);
  if (!name) return 'name (1-300 characters) is required';
  if (b.trade_name !== undefined && b.trade_name !== null && !text(b.trade_name, 150)) return 'trade_name must be 1-150 characters';
  const record: TaxpayerRecord = { name, tradeName: text(b.trade_name, 150) };
  if (b.address === undefined || b.address === null) return record;
  const a = (typeof b.address === 'object' ? b.address : {}) as Record<string, unknown>;
  const street = text(a.street, 255);
  const number = text(a.number, 60);
  const district = text(a.district, 60);
  const complement = a.complement === undefined || a.complement === null ? undefined : text(a.complement, 156);
  const municipalityCode = typeof a.municipality_code === 'string' && /^[0-9]{7}$/.test(a.municipality_code) && municipality(a.municipality_code) ? a.municipality_code : undefined;
  const postalCode = typeof a.postal_code === 'string' && /^[0-9]{8}$/.test(a.postal_code) ? a.postal_code : undefined;
  if (!street || !number || !district || !municipalityCode || !postalCode || (a.complement != null && !complement)) {
    return 'address needs street (1-255), number (1-60), district (1-60), municipality_code (an IBGE code), postal_code (8 digits) and, when given, complement (1-156)';
  }
  return { ...record, address: { street, number, complement, district, municipalityCode, postalCode } };
}

/** The record as the admin API's JSON (what remoteSimulatorLink sends). */
export function taxpayerJson(r: TaxpayerRecord): Record<string, unknown> {
  return {
    name: r.name,
    ...(r.tradeName ? { trade_name: r.tradeName } : {}),
    ...(r.address
      ? {
          address: {
            street: r.address.street, number: r.address.number, ...(r.address.complement ? { complement: r.address.complement } : {}),
            district: r.address.district, municipality_code: r.address.municipalityCode, postal_code: r.address.postalCode,
          },
        }
      : {}),
  };
}

/** In memory, like the CSCs: the gateway registers its issuers again whenever it starts. */
export class TaxpayerRegister {
  private readonly byKey = new Map<string, TaxpayerRecord>();

  /** `fallbackTenant`: whose records every tenant sees (the operator's, tenant.ts OPERATOR_TENANT). */
  constructor(private readonly fallbackTenant: string) {}

  register(tenant: string, taxId: string, record: TaxpayerRecord): void {
    this.byKey.set(`${tenant}|${taxId}`, record);
  }

  /** The tenant's record of this CNPJ/CPF, else the operator's (registered without a tenant). */
  lookup(tenant: string, taxId: string): TaxpayerRecord | undefined {
    return this.byKey.get(`${tenant}|${taxId}`) ?? this.byKey.get(`${this.fallbackTenant}|${taxId}`);
  }
}
