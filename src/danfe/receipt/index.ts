// The DANFE NFC-e in every form (PDF, ESC/POS, HTML), read and drawn in worker threads.
export { RECEIPT_LIMITS, RECEIPT_QUEUE, RECEIPT_TIMEOUT_MS, RECEIPT_WORKERS } from './receipt-limits.js';
export { DanfeNfceBusy, renderReceiptOffThread, type ReceiptForm, type ReceiptRequest } from './receipt-pool.js';
