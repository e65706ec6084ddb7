// What every division of the DANFE needs while it is laid out.
import type { DanfeInput } from './danfe-input.js';
import type { DanfeTheme } from './danfe-theme.js';
import type { ReceiptLayout } from './receipt-layout.js';

export interface DanfeContext {
  input: DanfeInput;
  theme: DanfeTheme;
  layout: ReceiptLayout;
  /** Pixel size of the issuer logo (PNG/JPEG), read by the PDF library. */
  imageSize(data: Buffer): { width: number; height: number };
}
