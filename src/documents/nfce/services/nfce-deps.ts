import type { Ports } from '../../../platform/ports/ports.js';

// Each NFC-e use case takes the few ports it uses, not the whole context.
/** Inutilization is synchronous: no worker to wake. */
export type InutilizeDeps = Pick<Ports, 'db' | 'clock' | 'config' | 'secrets' | 'authority'>;

export const NFCE_MODEL = 65 as const;
// Series 1 for every issuer until issuers get per-terminal series: numbers are per issuer+model+series.
export const DEFAULT_SERIE = 1;
export const AUTHORIZE_JOB = 'nfce.authorize';
export const CANCEL_JOB = 'nfce.cancel';
/** Voids the number of a contingency NFC-e the authority refused. */
export const CONTINGENCY_VOID_JOB = 'nfce.contingency-void';
