// Bounds of one DANFSe rendering, so its cost is bounded whatever the XML.
import { NFSE_XML_MAX_BYTES } from '../../fiscal/xml/nfse/read-nfse.js';

/** The NFS-e as text: the reader's own bound, checked before the XML is copied to a thread. */
export const DANFSE_XML_MAX_BYTES = NFSE_XML_MAX_BYTES;
/** A rendering that takes longer is abandoned (its thread ended); one page takes milliseconds. */
export const DANFSE_TIMEOUT_MS = 20_000;
/** Heap of the thread that renders one DANFSe. */
export const DANFSE_WORKER_HEAP_MB = 96;
/** Renderings running at once (each on a thread of its own). */
export const DANFSE_WORKERS = 1;
/** Renderings allowed to wait for a thread; beyond this the caller answers 503. */
export const DANFSE_QUEUE = 8;
