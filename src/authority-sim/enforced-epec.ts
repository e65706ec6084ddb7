import type { EnforcedRule } from './enforced-rule.js';

// MOC 7.0 Anexo I group 2A (Banco de Dados: Evento EPEC, introduced by NT 2014.001 5.1) as the simulated state
// plays it at authorization (epec-rules.ts epecAuthorizationRejection); see enforced-rules.ts.
const WHERE = 'authority-sim/epec-rules.ts epecAuthorizationRejection (authorization-service.ts authorizeOne)';
export const ENFORCED_EPEC: readonly EnforcedRule[] = [
  { rule: '2AB08-10', code: 692, where: WHERE },
  { rule: '2AB08-20', code: 691, where: WHERE },
  { rule: '2AB08-30', code: 467, where: WHERE },
  { rule: '2AB08-40', code: 468, where: WHERE },
];
