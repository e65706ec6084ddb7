// Limits of the issuer logo printed on the DANFE NFC-e. A thermal receipt prints the logo
// about 20 mm wide (160-240 dots), so these are generous for a logo and small enough that decoding
// the largest allowed one costs a few milliseconds and a few MB, never seconds and hundreds of MB.

/** Neither side may exceed this many pixels. */
export const LOGO_MAX_SIDE = 1024;
/** Width x height may not exceed this (512x512, or 1024x256): 1 MiB as decoded RGBA. */
export const LOGO_MAX_PIXELS = 262_144;
/** The file as sent and as stored (after normalizing). */
export const LOGO_MAX_BYTES = 256 * 1024;
/** Quality of the baseline JPEG a JPEG logo is re-encoded to when it is not baseline already. */
export const LOGO_JPEG_QUALITY = 90;
/** A normalization (decode, check, re-encode) that takes longer is abandoned (its worker ended). */
export const LOGO_WORK_TIMEOUT_MS = 10_000;
/** Heap of the worker thread that decodes a logo: the largest allowed one needs a few MB. */
export const LOGO_WORKER_HEAP_MB = 64;
/** Logo normalizations running at once (each on a thread of its own). */
export const LOGO_WORKERS = 2;
/** Normalizations allowed to wait for a thread; beyond this the request is answered 503. */
export const LOGO_QUEUE = 16;

export const LOGO_LIMIT_TEXT = `the limit is ${LOGO_MAX_SIDE}x${LOGO_MAX_SIDE} and ${LOGO_MAX_PIXELS} pixels in all (e.g. 512x512)`;
