import type { NfseParty } from '../../src/documents/nfse/domain/nfse-request.js';
import type { NfseBreaker, NfseCase } from './nfse-breakers.js';
import { WRITTEN } from './nfse-breakers.js';
import { expiredSigningKey } from './generate-certificate.js';
import { editAt, otherLastDigit, setText } from './rule-breakers.js';

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
  // h-nfsep: infDPS, prest identification and regTrib, the withholding party's address, NIF abroad, cNaoNIF 0, ISO2 country
  ...nfsepBreakers(),
];

/** infDPS/serie set to 50000 (the mobile app's range) and the Id that repeats it (else E0004 answers first). */
function appSeries(xml: string): string {
  return setText(xml, ['infDPS', 'serie'], () => '50000').replace(/Id="(DPS[0-9A-Z]{22})[0-9]{5}([0-9]{15})"/, (_m, head: string, n: string) => `Id="${head}50000${n}"`);
}

/** The provider identified otherwise than by CNPJ/CPF (NIF, cNaoNIF): what tpEmit 1 forbids. */
const providerId = (xml: string, element: string) => xml.replace(/<prest><(CNPJ|CPF)>[0-9A-Z]+<\/(CNPJ|CPF)>/, `<prest>${element}`);
const regTrib = (xml: string, edit: (inner: string) => string) => editAt(xml, ['infDPS', 'prest', 'regTrib'], edit);
const prestEmail = (xml: string) => xml.slice(xml.indexOf('<prest>'), xml.indexOf('</prest>')).includes('<email>');
const taxable = (xml: string) => xml.includes('<tribISSQN>1</tribISSQN>');

function nfsepBreakers(): NfseBreaker[] {
  const roleBreakers = (role: Role, codes: { retentionAddress: string; nifAddress: string; country: string }): NfseBreaker[] => [
    {
      kind: 'request', rule: codes.retentionAddress, code: codes.retentionAddress, applies: (c) => (party(c, role)?.cpf ?? party(c, role)?.cnpj) !== undefined,
      break: (c) => {
        c.req.values.iss.retained = role;
        delete party(c, role)!.address;
        return 'values.iss.retained';
      },
    },
    { kind: 'request', rule: codes.nifAddress, code: codes.nifAddress, applies: (c) => party(c, role)?.nif !== undefined, break: (c) => (delete party(c, role)!.address, `${role}.address`) },
    {
      kind: 'request', rule: codes.country, code: codes.country, applies: (c) => party(c, role)?.address?.country_code !== undefined,
      break: (c) => ((party(c, role)!.address!.country_code = 'ZZ'), `${role}.address.country_code`),
    },
  ];
  return [
    {
      kind: 'document', rule: 'E0715', code: 'E0715', why: 'the gateway signs with the issuer\'s certificate and refuses to emit once it is out of its validity (issuer_not_ready)', signature: true,
      break: (d) => ({ xml: d.rebuild(expiredSigningKey()) }),
    },
    { kind: 'document', rule: 'E0008', code: 'E0008', why: 'the gateway writes dhEmi from its clock', break: (d) => ({ xml: setText(d.xml, ['infDPS', 'dhEmi'], () => '2099-01-01T00:00:00-03:00') }) },
    { kind: 'document', rule: 'E0010', code: 'E0010', why: 'the series is the issuer\'s nfse.dps_series, refused outside 1-49999 when it is set', break: (d) => ({ xml: appSeries(d.xml) }) },
    { kind: 'document', rule: 'E0029', code: 'E0029', why: WRITTEN, break: (d) => ({ xml: d.xml.replace('</tpEmit>', '</tpEmit><cMotivoEmisTI>1</cMotivoEmisTI>') }) },
    { kind: 'request', rule: 'E0850', code: 'E0850', applies: (c) => c.req.reform !== undefined && c.ctx.taxReform === true, break: (c) => ((c.req.competence_date = '2025-12-31'), 'reform') },
    { kind: 'document', rule: 'E0112', code: 'E0112', why: WRITTEN, break: (d) => ({ xml: providerId(d.xml, '<NIF>123456789</NIF>') }) },
    { kind: 'document', rule: 'E0114', code: 'E0114', why: WRITTEN, break: (d) => ({ xml: providerId(d.xml, '<cNaoNIF>1</cNaoNIF>') }) },
    { kind: 'document', rule: 'E0115', code: 'E0115', why: WRITTEN, break: (d) => ({ xml: providerId(d.xml, '<cNaoNIF>0</cNaoNIF>') }) },
    {
      kind: 'document', rule: 'E0148', code: 'E0148', why: 'the provider\'s e-mail is the issuer\'s, refused when it is registered (issuer_id)',
      break: (d) => ({ xml: prestEmail(d.xml) ? setText(d.xml, ['infDPS', 'prest', 'email'], () => 'maria.example.com') : d.xml.replace('<regTrib>', '<email>maria.example.com</email><regTrib>') }),
    },
    {
      kind: 'document', rule: 'E0162', code: 'E0162', why: 'regApTribSN is the issuer\'s, refused for other than an ME/EPP (issuer_id)', applies: (c) => c.ctx.issuer.simplesNacional !== 3,
      break: (d) => ({ xml: regTrib(d.xml, (o) => o.replace('<regEspTrib>', '<regApTribSN>1</regApTribSN><regEspTrib>')) }),
    },
    {
      kind: 'document', rule: 'E0166', code: 'E0166', why: 'regApTribSN is the issuer\'s, required for an ME/EPP (issuer_id)', applies: (c) => c.ctx.issuer.simplesNacional === 3,
      break: (d) => ({ xml: regTrib(d.xml, (o) => o.replace(/<regApTribSN>[0-9]<\/regApTribSN>/, '')) }),
    },
    {
      kind: 'request', rule: 'E0172', code: 'E0172', applies: (c) => c.ctx.issuer.specialRegime !== 0,
      break: (c) => ((c.req.values.iss.taxation = 'nao_incidencia'), 'values.iss.taxation'),
    },
    {
      kind: 'document', rule: 'E0174', code: 'E0174', why: 'regEspTrib is the issuer\'s, refused for a MEI (issuer_id)', applies: (c, d) => c.ctx.issuer.simplesNacional === 2 && taxable(d.xml),
      break: (d) => ({ xml: setText(d.xml, ['infDPS', 'prest', 'regTrib', 'regEspTrib'], () => '1') }),
    },
    {
      kind: 'document', rule: 'E0175', code: 'E0175', why: 'regEspTrib is the issuer\'s, refused for an ME/EPP paying through the SN (issuer_id)',
      applies: (c, d) => c.ctx.issuer.simplesNacional === 3 && c.ctx.issuer.simplesRegime === 1 && taxable(d.xml),
      break: (d) => ({ xml: setText(d.xml, ['infDPS', 'prest', 'regTrib', 'regEspTrib'], () => '1') }),
    },
    ...roleBreakers('tomador', { retentionAddress: 'E0237', nifAddress: 'E0242', country: 'E0246' }),
    ...roleBreakers('intermediario', { retentionAddress: 'E0293', nifAddress: 'E0298', country: 'E0299' }),
    {
      kind: 'document', rule: 'E0286', code: 'E0286', why: 'the request offers only cNaoNIF 1 (isento) and 2 (nao_exigido)',
      applies: (c) => c.req.intermediario?.no_nif_reason !== undefined, break: (d) => ({ xml: setText(d.xml, ['infDPS', 'interm', 'cNaoNIF'], () => '0') }),
    },
  ];
}
