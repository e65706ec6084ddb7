// Bounds of what the DANFE NF-e accepts, so the cost of one rendering is bounded whatever the XML.

export const DANFE_NFE_LIMITS = {
  /**
   * The nfeProc as text. An NF-e travels in a message of at most 500 KB (cStat 214, "Tamanho da
   * mensagem excedeu o limite estabelecido"); the protocol and events add a few KB.
   */
  xmlBytes: 1024 * 1024,
  /** det maxOccurs in the 4.00 XSD. */
  items: 990,
  /** cobr/dup maxOccurs in the 4.00 XSD (docs/fiscal/nfe-model-55.md#emission). */
  duplicates: 120,
} as const;

/** A rendering that takes longer is abandoned (its thread ended). */
export const DANFE_NFE_TIMEOUT_MS = 30_000;
/** Heap of the thread that renders one DANFE NF-e: the 990-item note needs far less. */
export const DANFE_NFE_WORKER_HEAP_MB = 128;
/** Renderings running at once (each on a thread of its own). */
export const DANFE_NFE_WORKERS = 1;
/** Renderings allowed to wait for a thread; beyond this the caller answers 503. */
export const DANFE_NFE_QUEUE = 8;
