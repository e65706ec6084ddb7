import type { EnforcedRule } from './enforced-rules.js';

// Rules on the DPS identification, substitution and parties (infDPS, subst, prest, toma, interm, serv) that the simulator enforces (nfse/dps-party-rules.ts); see enforced-rules.ts.
export const ENFORCED_NFSE_DPS: readonly EnforcedRule[] = [];
