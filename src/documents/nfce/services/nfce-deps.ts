import type { AppContext } from '../../../app-context.js';

/** What the NFC-e use cases need: the process context (storage, clock, secrets, authority, worker). */
export type NfceDeps = AppContext;

export const NFCE_MODEL = 65;
// Series 1 for every issuer until issuers get per-terminal series: numbers are per issuer+model+series.
export const DEFAULT_SERIE = 1;
export const AUTHORIZE_JOB = 'nfce.authorize';
export const CANCEL_JOB = 'nfce.cancel';
