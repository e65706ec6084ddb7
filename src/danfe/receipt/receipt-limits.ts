// Bounds of one DANFE NFC-e rendering (PDF, ESC/POS or HTML), so its cost is bounded whatever the XML
// (a 990-item offline NFC-e held the event loop for about a second).

export const RECEIPT_LIMITS = {
  /**
   * The NFe or nfeProc as text. An NFC-e travels in a message of at most 500 KB (cStat 214); the
   * protocol, the QR code and what the point of sale's offline XML carries add a little, and the 990
   * items of the XSD with long descriptions reach about 700 KB.
   */
  xmlBytes: 1024 * 1024,
  /** det maxOccurs in the 4.00 XSD. */
  items: 990,
} as const;

/** A rendering that takes longer is abandoned (its thread ended); the 990-item roll takes well under a second. */
export const RECEIPT_TIMEOUT_MS = 20_000;
/** Heap of the thread that renders one receipt. */
export const RECEIPT_WORKER_HEAP_MB = 128;
/** Renderings running at once (each on a thread of its own). */
export const RECEIPT_WORKERS = 1;
/** Renderings allowed to wait for a thread; beyond this the caller answers 503. */
export const RECEIPT_QUEUE = 8;
