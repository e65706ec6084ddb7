import type { NfseBreaker, NfseCase } from './nfse-breakers.js';
import { editAt } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-nfse-values.ts (see rule-breakers.ts for the three kinds).

const taxable = (c: NfseCase) => (c.req.values.iss.taxation ?? 'tributavel') === 'tributavel';
const mei = (c: NfseCase) => c.ctx.issuer.simplesNacional === 2;

export const NFSE_VALUES_BREAKERS: readonly NfseBreaker[] = [
  {
    kind: 'document', rule: 'E0424', code: 'E0424', why: 'the gateway issues as the provider (tpEmit 1) and never writes vReceb',
    break: (d) => ({ xml: editAt(d.xml, ['infDPS', 'valores', 'vServPrest'], (o) => o.replace('<vServ>', '<vReceb>1.00</vReceb><vServ>')) }),
  },
  { kind: 'request', rule: 'E0431', code: 'E0431', break: (c) => ((c.req.values.unconditional_discount = c.req.values.service_amount), 'values.unconditional_discount') },
  { kind: 'request', rule: 'E0432', code: 'E0432', break: (c) => ((c.req.values.conditional_discount = c.req.values.service_amount), 'values.conditional_discount') },
  {
    kind: 'request', rule: 'E0532', code: 'E0532', applies: (c) => taxable(c) && c.ctx.issuer.specialRegime === 0,
    break: (c) => ((c.req.service.national_code = '990101'), 'values.iss.taxation'),
  },
  {
    kind: 'request', rule: 'E0580', code: 'E0580', applies: (c) => c.ctx.issuer.specialRegime === 0,
    break: (c) => {
      c.req.values.iss.taxation = 'nao_incidencia';
      c.req.values.iss.retained = 'tomador';
      delete c.req.values.iss.rate;
      return 'values.iss.retained';
    },
  },
  { kind: 'request', rule: 'E0583', code: 'E0583', applies: (c) => mei(c) && taxable(c), break: (c) => ((c.req.values.iss.retained = 'tomador'), 'values.iss.retained') },
  {
    kind: 'request', rule: 'E0595', code: 'E0595', applies: (c) => taxable(c) && !mei(c) && c.ctx.issuer.specialRegime === 0,
    break: (c) => ((c.req.values.iss.rate = 5.5), 'values.iss.rate'),
  },
  { kind: 'request', rule: 'E0600', code: 'E0600', applies: (c) => mei(c) && taxable(c), break: (c) => ((c.req.values.iss.rate = 2), 'values.iss.rate') },
  { kind: 'request', rule: 'E0602', code: 'E0602', applies: (c) => !taxable(c), break: (c) => ((c.req.values.iss.rate = 2), 'values.iss.rate') },
];
