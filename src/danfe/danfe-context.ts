// What every division of the DANFE needs while it is laid out.
import type { DanfeInput } from './danfe-input.js';
import type { DanfeTheme } from './danfe-theme.js';
import type { ReceiptLayout } from './receipt-layout.js';

export interface DanfeContext {
  input: DanfeInput;
  theme: DanfeTheme;
  layout: ReceiptLayout;
  /** Which copy this page is, when a note prints two (offline contingency before authorization, docs/fiscal/offline-contingency.md). */
  copyLabel?: string;
  /** Pixel size of the issuer logo (PNG/JPEG), read by the PDF library. */
  imageSize(data: Buffer): { width: number; height: number };
}

/** The two copies of an offline contingency note not yet authorized (docs/fiscal/offline-contingency.md), in every printed form. */
export const CONTINGENCY_COPY_LABELS = ['Via consumidor', 'Via estabelecimento'] as const;
