// What the DANFE NFC-e prints, already pulled out of the XML (docs/fiscal/danfe-nfce.md: the DANFE may only show data
// present in the XML plus the authorization protocol). Amounts stay the XML's decimal strings
// ("1500.00", "96.2200") so nothing is rounded before the Brazilian formatting.

/** The input cannot make a DANFE NFC-e (not an NFC-e, no QR code, not authorized, bad settings). */
export class DanfeInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DanfeInputError';
  }
}

/**
 * The document is neither authorized nor issued in contingency: it has no DANFE yet (docs/fiscal/offline-contingency.md, docs/fiscal/danfe-nfce.md). A distinct error so the caller answers 409, not the 422 of a document that
 * cannot be drawn.
 */
export class DanfeNotAuthorizedError extends Error {
  constructor(readonly tpEmis: number) {
    super(`the note is not authorized and its tpEmis is ${tpEmis}; only a note issued in contingency (tpEmis 9) is printed before authorization`);
    this.name = 'DanfeNotAuthorizedError';
  }
}

/**
 * Only an authorized note, or an offline contingency note (tpEmis 9, printed and handed to the consumer
 * before the authority sees it), has a DANFE. A signed normal emission without a protocol would print as
 * "Pendente de autorização", a receipt the consumer takes for a note the authority may never see.
 */
export function assertPrintable(input: Pick<DanfeInput, 'authorization' | 'tpEmis' | 'epec'>): void {
  // SP's NFC-e EPEC (tpEmis 4): printed once its EPEC is registered (docs/fiscal/offline-contingency.md#epec-sp).
  if (input.tpEmis === 4 && input.epec) return;
  if (!input.authorization && input.tpEmis !== 9) throw new DanfeNotAuthorizedError(input.tpEmis);
}

/** The lines of the DANFE NFC-e of an EPEC (tpEmis 4), before and after authorization; null for another tpEmis. */
export function epecNfceMarks(input: Pick<DanfeInput, 'tpEmis' | 'contingency'>, formatDateTime: (iso: string) => string): string[] | null {
  if (input.tpEmis !== 4) return null;
  // docs/fiscal/offline-contingency.md#epec-sp: the DANFE-NFC-e's own EPEC text (sped-da Danfce, NFCe block VII) and,
  // Ajuste SINIEF 19/16 cl. 11 § 1º I b, the date and time the contingency began.
  const since = input.contingency?.since;
  return [
    'DANFE-NFC-e Impresso em contingência - EPEC',
    'Regularmente recebido pela administração tributária autorizadora',
    ...(since ? [`Data de entrada em contingência: ${formatDateTime(since)}`] : []),
  ];
}

export interface DanfeAddress {
  street: string;
  number: string;
  complement?: string;
  district?: string;
  city: string;
  uf: string;
  cep?: string;
  phone?: string;
}

export interface DanfeIssuer {
  /** CNPJ (14 positions, alphanumeric from 2026) or, for rural producers, CPF. */
  cnpj?: string;
  cpf?: string;
  name: string;
  tradeName?: string;
  ie?: string;
  address: DanfeAddress;
}

export interface DanfeItem {
  number: number;
  code: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  total: string;
  discount?: string;
  /** vFrete + vSeg + vOutro of the item. */
  additions?: string;
}

export interface DanfeTotals {
  /** vProd: sum of the items. */
  products: string;
  discount: string;
  /** vFrete + vSeg + vOutro. */
  additions: string;
  /** vNF: the amount to pay. */
  total: string;
  /** vTotTrib (Lei 12.741/2012), when informed. */
  approximateTaxes?: string;
}

export interface DanfePayment {
  /** tPag code, two digits. */
  method: string;
  /** xPag, required by the layout for tPag 99. */
  description?: string;
  amount: string;
}

export type DanfeConsumerDocument = 'cpf' | 'cnpj' | 'foreign';

export interface DanfeConsumer {
  document?: { kind: DanfeConsumerDocument; id: string };
  name?: string;
  address?: DanfeAddress;
}

export interface DanfeAuthorization {
  protocol: string;
  /** dhRecbto as sent by the authority. */
  receivedAt: string;
}

export interface DanfeCancellation {
  protocol?: string;
  /** dhRegEvento of the cancellation event. */
  at?: string;
}

export interface DanfeSettings {
  /** PNG or JPEG, scaled into the header. */
  logo?: Buffer;
  /** '#RRGGBB'; tints headings and rules, never the QR code. */
  primaryColor?: string;
  footerText?: string;
}

export interface DanfeInput {
  accessKey: string;
  tpAmb: 1 | 2;
  /** 1 normal, 4 EPEC (SP), 9 offline contingency (docs/fiscal/offline-contingency.md). */
  tpEmis: number;
  /** The registered EPEC of a tpEmis 4 note (SP's NFC-e EPEC): it may be printed before authorization. */
  epec?: { protocol: string; registeredAt: string };
  number: string;
  series: string;
  /** dhEmi, printed in the issuer's own offset. */
  issuedAt: string;
  contingency?: { since?: string; reason?: string };
  issuer: DanfeIssuer;
  items: DanfeItem[];
  totals: DanfeTotals;
  payments: DanfePayment[];
  change?: string;
  consumer?: DanfeConsumer;
  authorization?: DanfeAuthorization;
  cancellation?: DanfeCancellation;
  /** infNFeSupl/qrCode, encoded exactly. */
  qrCode: string;
  /** infNFeSupl/urlChave (or the state's published address for 3.10 notes, which had none). */
  urlChave: string;
  fiscoMessage?: string;
  taxpayerMessage?: string;
  settings?: DanfeSettings;
}
