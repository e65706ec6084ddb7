import type { EnforcedRule } from './enforced-rules.js';

// Rules on the DPS identification, substitution, parties and service (infDPS, subst, prest, toma, interm, serv) that the simulator enforces (nfse/dps-party-rules.ts, nfse/dps-service-rules.ts); see enforced-rules.ts.
const where = 'authority-sim/nfse/dps-party-rules.ts';
export const ENFORCED_NFSE_DPS: readonly EnforcedRule[] = [
  // prest
  'E0080', 'E0096',
  // toma
  'E0188', 'E0202', 'E0206', 'E0204', 'E0226', 'E0223', 'E0238', 'E0247',
  // interm
  'E0248', 'E0262', 'E0266', 'E0264', 'E0281', 'E0294', 'E0300',
].map((rule) => ({ rule, code: rule, where }));

// subst and serv (nfse/dps-service-rules.ts)
const service = 'authority-sim/nfse/dps-service-rules.ts';
export const ENFORCED_NFSE_SERVICE: readonly EnforcedRule[] = [
  // subst (E0060/E0061 against the replaced NFS-e, run by substitution.ts)
  'E0078', 'E0060', 'E0061',
  // serv: locPrest, cServ, obra, atvEvento
  'E0302', 'E0304', 'E0315', 'E0318', 'E0322', 'E0370', 'E0372', 'E0382', 'E0386', 'E0390', 'E0392', 'E0400', 'E0404',
].map((rule) => ({ rule, code: rule, where: service }));
