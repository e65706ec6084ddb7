import type { EnforcedRule } from './enforced-rules.js';

// Rules on the DPS identification, substitution and parties (infDPS, subst, prest, toma, interm, serv) that the simulator enforces (nfse/dps-party-rules.ts); see enforced-rules.ts.
const where = 'authority-sim/nfse/dps-party-rules.ts';
export const ENFORCED_NFSE_DPS: readonly EnforcedRule[] = [
  // prest
  'E0080', 'E0096',
  // toma
  'E0188', 'E0202', 'E0206', 'E0204', 'E0226', 'E0223', 'E0238', 'E0247',
  // interm
  'E0248', 'E0262', 'E0266', 'E0264', 'E0281', 'E0294', 'E0300',
].map((rule) => ({ rule, code: rule, where }));
