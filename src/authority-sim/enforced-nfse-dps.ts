import type { EnforcedRule } from './enforced-rule.js';

// Rules on the DPS identification, substitution, parties and service (infDPS, subst, prest, toma, interm, serv) that the simulator enforces (nfse/dps-party-rules.ts, nfse/dps-service-rules.ts); see enforced-rules.ts.
const where = 'authority-sim/nfse/dps-party-rules.ts';
export const ENFORCED_NFSE_DPS: readonly EnforcedRule[] = [
  // prest
  'E0080', 'E0096',
  // toma
  'E0188', 'E0202', 'E0206', 'E0204', 'E0226', 'E0223', 'E0238', 'E0247',
  // interm
  'E0248', 'E0262', 'E0266', 'E0264', 'E0281', 'E0294', 'E0300',
  // h-nfsep: infDPS (E0008 dhEmi, E0010 serie, E0029 cMotivoEmisTI, E0850 IBSCBS before 2026), prest (identification, e-mail, regTrib),
  // toma / interm (withholder's national address, NIF abroad, cNaoNIF 0, ISO2 country)
  'E0008', 'E0010', 'E0029', 'E0850',
  'E0112', 'E0114', 'E0115', 'E0148', 'E0162', 'E0166', 'E0172', 'E0174', 'E0175',
  'E0237', 'E0242', 'E0246', 'E0286', 'E0293', 'E0298', 'E0299',
].map((rule) => ({ rule, code: rule, where }));

// subst and serv (nfse/dps-service-rules.ts)
const service = 'authority-sim/nfse/dps-service-rules.ts';
export const ENFORCED_NFSE_SERVICE: readonly EnforcedRule[] = [
  // subst (E0060/E0061 against the replaced NFS-e, run by substitution.ts)
  'E0078', 'E0060', 'E0061',
  // serv: locPrest, cServ, obra, atvEvento
  'E0302', 'E0304', 'E0315', 'E0318', 'E0322', 'E0370', 'E0372', 'E0382', 'E0386', 'E0390', 'E0392', 'E0400', 'E0404',
].map((rule) => ({ rule, code: rule, where: service }));
