import type { Element } from '@xmldom/xmldom';
import { isIsoCountry } from '../../fiscal/layout/countries.js';
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
  /** cNaoNIF 0 (E0226 / E0286). */
  noNifZero: string;
  /** A withholding party without a national address (E0237 / E0293). */
  retentionAddress: string;
  /** NIF without an address abroad, the issuer identified by CNPJ (E0242 / E0298). */
  nifAddress: string;
  /** cPais not an ISO2 country, or BR (E0246 / E0299). */
  country: string;
}

const TOMA: PartyCodes = {
  cnpj: 'E0188', sameRoot: 'E0202', cpf: 'E0206', email: 'E0247', cMun: 'E0238', nifAbroad: 'E0223', retention: { tpRetISSQN: '2', code: 'E0204' },
  noNifZero: 'E0226', retentionAddress: 'E0237', nifAddress: 'E0242', country: 'E0246',
};
const INTERM: PartyCodes = {
  cnpj: 'E0248', sameRoot: 'E0262', cpf: 'E0266', email: 'E0300', cMun: 'E0294', nifAbroad: 'E0281', retention: { tpRetISSQN: '3', code: 'E0264' },
  noNifZero: 'E0286', retentionAddress: 'E0293', nifAddress: 'E0298', country: 'E0299',
};

// E0247 / E0300: "conter @, ponto etc.": a name, an @ and a domain with a dot.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * The provider's identification with tpEmit 1 (the only one accepted, E9996): CNPJ or CPF, never NIF
 * (E0112) nor cNaoNIF (E0114; 0 is no reason at all, E0115). Called before the Id is compared with its
 * fields (E0004), which need the CNPJ or CPF.
 */
export function checkProviderIdentity(dps: Element): void {
  const prest = childOf(childOf(dps, 'infDPS')!, 'prest')!;
  const cNaoNIF = textAt(prest, 'cNaoNIF');
  if (cNaoNIF === '0') throw new NfseRefusal('E0115', 'prest/cNaoNIF 0');
  if (textAt(prest, 'NIF') !== undefined) throw new NfseRefusal('E0112', 'prest/NIF with tpEmit 1');
  if (cNaoNIF !== undefined) throw new NfseRefusal('E0114', `prest/cNaoNIF ${cNaoNIF} with tpEmit 1`);
}

function checkProvider(prest: Element, tribISSQN: string | undefined): void {
  const cnpj = textAt(prest, 'CNPJ');
  // E0080 / E0096: the provider's CNPJ / CPF with wrong check digits.
  if (cnpj !== undefined && !isValidCnpj(cnpj)) throw new NfseRefusal('E0080', `prest/CNPJ ${cnpj}`);
  const cpf = textAt(prest, 'CPF');
  if (cpf !== undefined && !isValidCpf(cpf)) throw new NfseRefusal('E0096', `prest/CPF ${cpf}`);
  const email = textAt(prest, 'email');
  // E0148: the provider's e-mail with the structure of an address.
  if (email !== undefined && !EMAIL.test(email)) throw new NfseRefusal('E0148', 'prest/email');
  // regTrib as declared (whether it matches the Simples Nacional register, E0160, is Sefin's register).
  const op = textAt(prest, 'regTrib/opSimpNac');
  const regApTribSN = textAt(prest, 'regTrib/regApTribSN');
  const regEspTrib = textAt(prest, 'regTrib/regEspTrib');
  // E0162 / E0166: regApTribSN only, and always, for an ME/EPP (opSimpNac 3).
  if (op !== '3' && regApTribSN !== undefined) throw new NfseRefusal('E0162', `regApTribSN ${regApTribSN} with opSimpNac ${op}`);
  if (op === '3' && regApTribSN === undefined) throw new NfseRefusal('E0166', 'opSimpNac 3 without regApTribSN');
  if (regEspTrib !== '0') {
    // E0172: no special regime for an immune, exported or non-incident service (tribISSQN 2, 3, 4).
    if (tribISSQN === '2' || tribISSQN === '3' || tribISSQN === '4') throw new NfseRefusal('E0172', `regEspTrib ${regEspTrib} with tribISSQN ${tribISSQN}`);
    // E0174: none for a MEI; E0175: none for an ME/EPP paying everything through the SN (regApTribSN 1).
    if (op === '2') throw new NfseRefusal('E0174', `regEspTrib ${regEspTrib} for a MEI`);
    if (op === '3' && regApTribSN === '1') throw new NfseRefusal('E0175', `regEspTrib ${regEspTrib} with opSimpNac 3, regApTribSN 1`);
  }
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
  // E0237 / E0293: ISSQN withheld by this party (tpEmit 1, the only one accepted: E9996), which then has a national address.
  if (tpRetISSQN === codes.retention.tpRetISSQN && textAt(party, 'end/endNac') === undefined) throw new NfseRefusal(codes.retentionAddress, `tpRetISSQN ${tpRetISSQN}, ${tag} without end/endNac`);
  // E0226 / E0286: cNaoNIF 0 is not accepted by Sefin.
  if (textAt(party, 'cNaoNIF') === '0') throw new NfseRefusal(codes.noNifZero, `${tag}/cNaoNIF 0`);
  // E0242 / E0298: NIF, the issuer (the provider, tpEmit 1) identified by CNPJ -> an address abroad.
  if (textAt(party, 'NIF') !== undefined && providerCnpj !== undefined && textAt(party, 'end/endExt') === undefined) throw new NfseRefusal(codes.nifAddress, `${tag}/NIF without end/endExt`);
  // E0246 / E0299: cPais an ISO2 country other than Brazil.
  const cPais = textAt(party, 'end/endExt/cPais');
  if (cPais !== undefined && (cPais === 'BR' || !isIsoCountry(cPais))) throw new NfseRefusal(codes.country, `${tag}/end/endExt/cPais ${cPais}`);
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

/** The DPS series of the taxpayer's own software, the issuer type that sends through the API (docs/fiscal/nfse-national.md#dps). */
const API_SERIES = { min: 1, max: 49_999 };

/** Throws NfseRefusal with the first rule the DPS breaks; `now` is the reception's (dhProc). */
export function checkDpsRules(dps: Element, f: DpsFacts, now: Date): void {
  const inf = childOf(dps, 'infDPS')!;
  // E0008: dhEmi not after the processing.
  if (Date.parse(f.dhEmi) > now.getTime()) throw new NfseRefusal('E0008', `dhEmi ${f.dhEmi}, dhProc ${now.toISOString()}`);
  // E0010: series 00001-49999 are the taxpayer's own software, which is what reaches the API.
  const serie = Number(f.serie);
  if (serie < API_SERIES.min || serie > API_SERIES.max) throw new NfseRefusal('E0010', `serie ${f.serie}`);
  // E0029: no reason for an emission by the taker or intermediary when the provider issues (tpEmit 1).
  if (f.tpEmit === '1' && textAt(inf, 'cMotivoEmisTI') !== undefined) throw new NfseRefusal('E0029', 'cMotivoEmisTI with tpEmit 1');
  // E0850: IBS/CBS declared only from the competence 2026-01-01.
  if (childOf(inf, 'IBSCBS') !== undefined && f.dCompet < '2026-01-01') throw new NfseRefusal('E0850', `IBSCBS with dCompet ${f.dCompet}`);
  const prest = childOf(inf, 'prest')!;
  checkProvider(prest, textAt(inf, 'valores/trib/tribMun/tribISSQN'));
  const tpRetISSQN = textAt(inf, 'valores/trib/tribMun/tpRetISSQN');
  const providerCnpj = textAt(prest, 'CNPJ');
  checkParty(childOf(inf, 'toma'), TOMA, providerCnpj, tpRetISSQN, 'toma');
  checkParty(childOf(inf, 'interm'), INTERM, providerCnpj, tpRetISSQN, 'interm');
}
