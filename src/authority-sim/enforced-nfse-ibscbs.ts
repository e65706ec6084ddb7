import type { EnforcedRule } from './enforced-rule.js';

// Rules on the DPS's IBS/CBS group (infDPS/IBSCBS, 2026 reform) that the simulator enforces (nfse/dps-ibscbs-rules.ts); see enforced-rules.ts.
const where = 'authority-sim/nfse/dps-ibscbs-rules.ts';
export const ENFORCED_NFSE_IBSCBS: readonly EnforcedRule[] = [
  // the operation: cIndOp, tpOper, gRefNFSe
  'E0901', 'E0903', 'E0904', 'E0905', 'E0906', 'E0907',
  // dest
  'E0910', 'E0911', 'E0913', 'E0920', 'E0930',
  // imovel
  'E0931', 'E0932', 'E0928', 'E0934', 'E0935',
  // valores/gReeRepRes
  'E0940', 'E0942', 'E0943', 'E0945', 'E0947', 'E0950', 'E0952', 'E0953',
  // valores/trib/gIBSCBS
  'E0959', 'E0970',
].map((rule) => ({ rule, code: rule, where }));
