// What the DANFE NF-e prints, pulled out of the authorised nfeProc (danfe-nfe-from-xml.ts). Amounts
// stay the XML's decimal strings so nothing is rounded before the Brazilian formatting.
import type { DanfeAddress, DanfeAuthorization, DanfeCancellation, DanfeIssuer, DanfeSettings } from '../danfe-input.js';

export interface DanfeNfeParty {
  name: string;
  /** CNPJ, CPF or foreign id, as written in the XML. */
  document?: { kind: 'cnpj' | 'cpf' | 'foreign'; id: string };
  ie?: string;
  address?: DanfeAddress;
}

export interface DanfeNfeItem {
  number: number;
  code: string;
  description: string;
  /** infAdProd, printed under the description. */
  extra?: string;
  ncm: string;
  /** orig + CST (3 digits) or orig + CSOSN (4 digits). */
  cst: string;
  cfop: string;
  unit: string;
  quantity: string;
  unitPrice: string;
  total: string;
  icmsBase?: string;
  icmsValue?: string;
  icmsRate?: string;
  ipiValue?: string;
  ipiRate?: string;
}

export interface DanfeNfeDuplicate {
  number?: string;
  dueDate?: string;
  amount: string;
}

export interface DanfeNfeInvoice {
  number?: string;
  original?: string;
  discount?: string;
  net?: string;
}

export interface DanfeNfeVolumes {
  quantity?: string;
  species?: string;
  brand?: string;
  numbering?: string;
  grossKg?: string;
  netKg?: string;
}

export interface DanfeNfeTransport {
  /** modFrete: 0 issuer, 1 recipient, 2 third party, 3 own by issuer, 4 own by recipient, 9 none. */
  mode: string;
  carrier?: DanfeNfeParty;
  antt?: string;
  plate?: string;
  plateUf?: string;
  volumes?: DanfeNfeVolumes;
}

/** total/IBSCBSTot (Reforma Tributária, PL_010), when the note carries it. */
export interface DanfeNfeIbsCbs {
  base: string;
  ibsUf?: string;
  ibsMun?: string;
  ibs: string;
  cbs: string;
  /** vNFTot: the note's total including IBS/CBS. */
  totalWithIbsCbs?: string;
}

/** ICMSTot as named in the XML: vBC, vICMS, vBCST, vST, vProd, vFrete, vSeg, vDesc, vOutro, vIPI, vNF, vTotTrib... */
export type DanfeNfeTotals = Record<string, string>;

/** total/ISSQNtot and the issuer's municipal registration (services in the note). */
export interface DanfeNfeIssqn {
  municipalRegistration?: string;
  services?: string;
  base?: string;
  value?: string;
}

export interface DanfeNfeInput {
  accessKey: string;
  tpAmb: 1 | 2;
  tpEmis: number;
  /** 0 entrada, 1 saída. */
  tpNF: '0' | '1';
  number: string;
  series: string;
  natOp: string;
  issuedAt: string;
  /** dhSaiEnt. */
  leftAt?: string;
  contingency?: { since?: string; reason?: string };
  /** Printed on the EPEC of a note not yet authorized (docs/fiscal/epec.md#the-danfe). */
  epec?: { protocol: string; registeredAt: string };
  issuer: DanfeIssuer & { ieSt?: string };
  recipient?: DanfeNfeParty;
  invoice?: DanfeNfeInvoice;
  duplicates: DanfeNfeDuplicate[];
  totals: DanfeNfeTotals;
  ibsCbs?: DanfeNfeIbsCbs;
  issqn?: DanfeNfeIssqn;
  transport: DanfeNfeTransport;
  items: DanfeNfeItem[];
  authorization: DanfeAuthorization;
  cancellation?: DanfeCancellation;
  fiscoMessage?: string;
  taxpayerMessage?: string;
  settings?: DanfeSettings;
}
