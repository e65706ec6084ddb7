import type { Element } from '@xmldom/xmldom';
import { municipality } from '../../fiscal/layout/ibge.js';
import { isValidCnpj, isValidCpf } from '../../kernel/tax-id.js';
import { childOf, textAt } from './document-checks.js';
import type { DpsFacts } from './dps-facts.js';
import { NfseRefusal } from './nfse-wire.js';

// Sefin Nacional Anexo I rules (RN DPS_NFS-e) on the DPS parties: the provider (prest), the taker
// (toma) and the intermediary (interm), written from the rule text (assets/fiscal/rules/nfse-anexo-i.json),
// independently of the gateway's own checks (documents/nfse/domain/validate-nfse-parties.ts). Rules
// that need Sefin's registers (CNPJ/CPF registers, the municipalities' CNC, the ISO2 country table)
// are not played: the simulator has none of them.

/** The codes of one party's rules, in the sheet's order of fields. */
interface PartyCodes {
  cnpj: string;
  sameRoot: string;
  cpf: string;
  email: string;
  cMun: string;
  nifAbroad: string;
  retention: { tpRetISSQN: string; code: string };
}

const TOMA: PartyCodes = { cnpj: 'E0188', sameRoot: 'E0202', cpf: 'E0206', email: 'E0247', cMun: 'E0238', nifAbroad: 'E0223', retention: { tpRetISSQN: '2', code: 'E0204' } };
const INTERM: PartyCodes = { cnpj: 'E0248', sameRoot: 'E0262', cpf: 'E0266', email: 'E0300', cMun: 'E0294', nifAbroad: 'E0281', retention: { tpRetISSQN: '3', code: 'E0264' } };

// E0247 / E0300: "conter @, ponto etc.": a name, an @ and a domain with a dot.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function checkProvider(prest: Element): void {
  const cnpj = textAt(prest, 'CNPJ');
  // E0080 / E0096: the provider's CNPJ / CPF with wrong check digits.
  if (cnpj !== undefined && !isValidCnpj(cnpj)) throw new NfseRefusal('E0080', `prest/CNPJ ${cnpj}`);
  const cpf = textAt(prest, 'CPF');
  if (cpf !== undefined && !isValidCpf(cpf)) throw new NfseRefusal('E0096', `prest/CPF ${cpf}`);
}

function checkParty(party: Element | undefined, codes: PartyCodes, providerCnpj: string | undefined, tpRetISSQN: string | undefined, tag: string): void {
  if (!party) {
    if (tpRetISSQN === codes.retention.tpRetISSQN) throw new NfseRefusal(codes.retention.code, `tpRetISSQN ${tpRetISSQN} without ${tag}`);
    return;
  }
  const cnpj = textAt(party, 'CNPJ');
  if (cnpj !== undefined) {
    if (!isValidCnpj(cnpj)) throw new NfseRefusal(codes.cnpj, `${tag}/CNPJ ${cnpj}`);
    // E0202 / E0262: the same CNPJ root (8 first characters, every establishment) as the provider's.
    if (providerCnpj !== undefined && cnpj.slice(0, 8) === providerCnpj.slice(0, 8)) throw new NfseRefusal(codes.sameRoot, `${tag}/CNPJ root ${cnpj.slice(0, 8)} is the provider's`);
  }
  const cpf = textAt(party, 'CPF');
  if (cpf !== undefined && !isValidCpf(cpf)) throw new NfseRefusal(codes.cpf, `${tag}/CPF ${cpf}`);
  // E0204 / E0264: ISSQN withheld by this party, which is then identified by CNPJ or CPF.
  if (tpRetISSQN === codes.retention.tpRetISSQN && cnpj === undefined && cpf === undefined) throw new NfseRefusal(codes.retention.code, `tpRetISSQN ${tpRetISSQN}, ${tag} without CNPJ or CPF`);
  // E0226 (toma only): cNaoNIF 0 is not accepted by Sefin.
  if (tag === 'toma' && textAt(party, 'cNaoNIF') === '0') throw new NfseRefusal('E0226', 'toma/cNaoNIF 0');
  // E0223 / E0281: an address abroad needs NIF or cNaoNIF.
  if (textAt(party, 'end/endExt') !== undefined && textAt(party, 'NIF') === undefined && textAt(party, 'cNaoNIF') === undefined) {
    throw new NfseRefusal(codes.nifAbroad, `${tag}/end/endExt without NIF or cNaoNIF`);
  }
  // E0238 / E0294: a municipality of IBGE's table.
  const cMun = textAt(party, 'end/endNac/cMun');
  if (cMun !== undefined && !municipality(cMun)) throw new NfseRefusal(codes.cMun, `${tag}/end/endNac/cMun ${cMun}`);
  const email = textAt(party, 'email');
  if (email !== undefined && !EMAIL.test(email)) throw new NfseRefusal(codes.email, `${tag}/email`);
}

/** Throws NfseRefusal with the first rule the DPS breaks. */
export function checkDpsRules(dps: Element, _f: DpsFacts): void {
  const inf = childOf(dps, 'infDPS')!;
  const prest = childOf(inf, 'prest')!;
  checkProvider(prest);
  const tpRetISSQN = textAt(inf, 'valores/trib/tribMun/tpRetISSQN');
  const providerCnpj = textAt(prest, 'CNPJ');
  checkParty(childOf(inf, 'toma'), TOMA, providerCnpj, tpRetISSQN, 'toma');
  checkParty(childOf(inf, 'interm'), INTERM, providerCnpj, tpRetISSQN, 'interm');
}
