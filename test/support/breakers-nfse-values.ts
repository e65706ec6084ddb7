import type { NfseBreaker } from './nfse-breakers.js';

// Breakers of the rules in authority-sim/enforced-nfse-values.ts (see rule-breakers.ts for the three kinds).
export const NFSE_VALUES_BREAKERS: readonly NfseBreaker[] = [];
