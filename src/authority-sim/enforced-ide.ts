import type { EnforcedRule } from './enforced-rules.js';

// Rules on ide (B) and the general rules of section 4.1 and 4.3 that a document can break that the simulator enforces (ide-rules.ts); see enforced-rules.ts.
const IDE = 'authority-sim/ide-rules.ts ideRejection';
export const ENFORCED_IDE: readonly EnforcedRule[] = [
  // 4.1 general rules
  { rule: 'B01', code: 214, where: 'authority-sim/ide-rules.ts messageRejection (authorization-service.ts handleAuthorization)' },
  { rule: 'B06', code: 239, where: 'authority-sim/ide-rules.ts messageRejection (authorization-service.ts handleAuthorization)' },
  { rule: 'GAP03a-1', code: 764, where: 'authority-sim/ide-rules.ts lotRejection (authorization-service.ts handleAuthorization)' },
  { rule: 'F03A', code: 227, where: IDE },
  // 4.2.1 authorization: ide (B)
  { rule: 'B03-10', code: 897, where: IDE },
  { rule: 'B06-20', code: 765, where: 'authority-sim/ide-rules.ts lotRejection (authorization-service.ts handleAuthorization)' },
  { rule: 'B09-10', code: 703, where: IDE },
  { rule: 'B09-20', code: 228, where: IDE },
  { rule: 'B09-30', code: 315, where: IDE },
  { rule: 'B09-50', code: 315, where: IDE },
  { rule: 'B10-10', code: 705, where: IDE },
  { rule: 'B11-10', code: 706, where: IDE },
  { rule: 'B11a-10', code: 707, where: IDE },
  { rule: 'B12-10', code: 270, where: IDE },
  { rule: 'B12-20', code: 271, where: IDE },
  { rule: 'B21-10', code: 709, where: IDE },
  { rule: 'B22-10', code: 711, where: IDE },
  { rule: 'B25-20', code: 715, where: IDE },
  { rule: 'B25-30', code: 254, where: IDE },
  { rule: 'B25-40', code: 255, where: IDE },
  { rule: 'B25-50', code: 269, where: IDE },
  { rule: 'B25-70', code: 321, where: IDE },
  { rule: 'B25a-10', code: 716, where: IDE },
  { rule: 'B25b-20', code: 717, where: IDE },
  { rule: 'B25b-40', code: 864, where: IDE },
  { rule: 'B25c-10', code: 434, where: IDE },
  { rule: 'B25c-20', code: 435, where: IDE },
  { rule: 'B26-10', code: 244, where: IDE },
  { rule: 'B26-20', code: 451, where: IDE },
  { rule: 'B26-30', code: 370, where: IDE },
  { rule: 'B28-10', code: 556, where: IDE },
  { rule: 'B28-20', code: 557, where: IDE },
];
