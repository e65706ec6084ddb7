import type { NfseParty } from '../../src/documents/nfse/domain/nfse-request.js';
import type { NfseBreaker, NfseCase } from './nfse-breakers.js';
import { WRITTEN } from './nfse-breakers.js';
import { otherLastDigit, setText } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-nfse-dps.ts (see rule-breakers.ts for the three kinds).

type Role = 'tomador' | 'intermediario';
const party = (c: NfseCase, role: Role): NfseParty | undefined => c.req[role];
const national = (p: NfseParty | undefined) => p?.address !== undefined && p.address.country_code === undefined;

/** The provider's CNPJ/CPF changed, in prest and in the Id it is part of (else E0004 answers first). */
const providerTaxId = (xml: string, tag: 'CNPJ' | 'CPF') => {
  const id = new RegExp(`<prest><${tag}>([0-9A-Z]+)</${tag}>`).exec(xml)?.[1];
  return id === undefined ? null : xml.replaceAll(id, otherLastDigit(id));
};

/** The same rules for the taker and the intermediary, each with its own code. */
function partyBreakers(role: Role, codes: { cnpj: string; sameRoot: string; cpf: string; retention: string; nifAbroad: string; cMun: string; email: string }): NfseBreaker[] {
  return [
    { kind: 'request', rule: codes.cnpj, code: codes.cnpj, applies: (c) => party(c, role)?.cnpj !== undefined, break: (c) => ((party(c, role)!.cnpj = otherLastDigit(party(c, role)!.cnpj!)), `${role}.cnpj`) },
    {
      kind: 'request', rule: codes.sameRoot, code: codes.sameRoot, applies: (c) => party(c, role)?.cnpj !== undefined && c.ctx.issuer.taxId.length === 14,
      break: (c) => ((party(c, role)!.cnpj = c.ctx.issuer.taxId), `${role}.cnpj`),
    },
    { kind: 'request', rule: codes.cpf, code: codes.cpf, applies: (c) => party(c, role)?.cpf !== undefined, break: (c) => ((party(c, role)!.cpf = otherLastDigit(party(c, role)!.cpf!)), `${role}.cpf`) },
    {
      kind: 'request', rule: codes.retention, code: codes.retention, applies: (c) => party(c, role) !== undefined,
      break: (c) => {
        c.req.values.iss.retained = role;
        delete c.req[role];
        return 'values.iss.retained';
      },
    },
    {
      kind: 'request', rule: codes.nifAbroad, code: codes.nifAbroad, applies: (c) => party(c, role)?.address?.country_code !== undefined,
      break: (c) => {
        const p = party(c, role)!;
        delete p.nif;
        delete p.no_nif_reason;
        p.cpf = '52998224725';
        return `${role}.address`;
      },
    },
    { kind: 'request', rule: codes.cMun, code: codes.cMun, applies: (c) => national(party(c, role)), break: (c) => ((party(c, role)!.address!.city_code = '1234567'), `${role}.address.city_code`) },
    { kind: 'request', rule: codes.email, code: codes.email, applies: (c) => party(c, role) !== undefined, break: (c) => ((party(c, role)!.email = 'maria.example.com'), `${role}.email`) },
  ];
}

export const NFSE_DPS_BREAKERS: readonly NfseBreaker[] = [
  { kind: 'document', rule: 'E0080', code: 'E0080', why: WRITTEN, applies: (c) => c.ctx.issuer.taxId.length === 14, break: (d) => ({ xml: providerTaxId(d.xml, 'CNPJ')! }) },
  { kind: 'document', rule: 'E0096', code: 'E0096', why: WRITTEN, applies: (c) => c.ctx.issuer.taxId.length === 11, break: (d) => ({ xml: providerTaxId(d.xml, 'CPF')! }) },
  ...partyBreakers('tomador', { cnpj: 'E0188', sameRoot: 'E0202', cpf: 'E0206', retention: 'E0204', nifAbroad: 'E0223', cMun: 'E0238', email: 'E0247' }),
  {
    kind: 'document', rule: 'E0226', code: 'E0226', why: 'the request offers only cNaoNIF 1 (isento) and 2 (nao_exigido)',
    applies: (c) => c.req.tomador?.no_nif_reason !== undefined, break: (d) => ({ xml: setText(d.xml, ['infDPS', 'toma', 'cNaoNIF'], () => '0') }),
  },
  ...partyBreakers('intermediario', { cnpj: 'E0248', sameRoot: 'E0262', cpf: 'E0266', retention: 'E0264', nifAbroad: 'E0281', cMun: 'E0294', email: 'E0300' }),
];
