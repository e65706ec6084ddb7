import type { Element } from '@xmldom/xmldom';
import { municipality } from '../../fiscal/layout/ibge.js';
import { installedReformTables } from '../../fiscal/reform/installed-reform-tables.js';
import { cstEntry, type ReformTables } from '../../fiscal/reform/reform-tables.js';
import { nfseClassOn } from '../../fiscal/xml/nfse/ibscbs-terms.js';
import { nfseKeyCheckDigit } from '../../fiscal/xml/nfse/dps-id.js';
import { isValidCnpj, isValidCpf } from '../../kernel/tax-id.js';
import { childOf, textAt } from './document-checks.js';
import type { DpsFacts } from './dps-facts.js';
import { OBRA_CODES } from './dps-service-rules.js';
import { NfseRefusal } from './nfse-wire.js';

// Sefin Nacional Anexo I rules (RN DPS_NFS-e, rows of 2026) on the IBS/CBS group of the DPS (infDPS/IBSCBS),
// written from the rule text (Anexo I v1.01-20260209, rows 549-641, as transcribed by Fm-s/open-nfse
// specs/ruleset/emissao.regras.json, commit 65ffd3008c0bb017fe2eaacdfc4e9192217e5b9a), independently of the
// gateway's own checks (documents/nfse/domain/validate-nfse.ts). With the reform tables installed, the cClassTrib
// table decides E0958, E0964, E0965. Not played: the CNPJ/CPF registers (E0912, E0914, E0921, E0922, E0946,
// E0948), the CIB check digit (E0933, whose algorithm the sheet does not give) and E0969 (cClassTribReg for
// services). The deferral group (E0971, E0972) follows the CST's indicator ind_gDif.

/**
 * E0901: the operation indicators of Anexo C (ANEXO_C-INDOP_IBSCBS-SNNFSe, v1.01 2026-01-22), as transcribed in
 * Fm-s/open-nfse specs/ruleset/tributos.md (26 codes; the table's 4 footnotes are not codes).
 */
export const IND_OP_CODES: ReadonlySet<string> = new Set([
  '020101', '020201', '020301', '030101', '030102', '030103', '030104', '040101', '050101', '050102', '050103', '050104', '050201',
  '060101', '070101', '070102', '080101', '100101', '100102', '100201', '100301', '100302', '100401', '100501', '100502', '100601',
]);
/** E0928 / E0932: the operation indicators of operations with real estate. */
export const REAL_ESTATE_OPS: ReadonlySet<string> = new Set(['020101', '020201', '020301']);
/** E0903 / E0904: LC 116 sub-items whose IBS/CBS names the operation type (tpOper). */
const TP_OPER_ITEMS = new Set(['2505', '1509', '1712', '1005']);
// E0930: "conter @, ponto etc.": a name, an @ and a domain with a dot.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function checkOperation(g: Element, cTribNac: string): void {
  const cIndOp = textAt(g, 'cIndOp')!;
  // E0901: an indicator of Anexo C's table.
  if (!IND_OP_CODES.has(cIndOp)) throw new NfseRefusal('E0901', `cIndOp ${cIndOp}`);
  const tpOper = textAt(g, 'tpOper');
  // E0903 / E0904: tpOper exactly for a government purchase (tpEnteGov) or LC 116 items 25.05, 15.09, 17.12, 10.05.
  const needsTpOper = textAt(g, 'tpEnteGov') !== undefined || TP_OPER_ITEMS.has(cTribNac.slice(0, 4));
  if (needsTpOper && tpOper === undefined) throw new NfseRefusal('E0903', `cTribNac ${cTribNac} without tpOper`);
  if (!needsTpOper && tpOper !== undefined) throw new NfseRefusal('E0904', `tpOper ${tpOper} with cTribNac ${cTribNac} and no tpEnteGov`);
  const ref = childOf(g, 'gRefNFSe');
  // E0905 / E0906: gRefNFSe exactly with tpOper 2 or 3.
  const needsRef = tpOper === '2' || tpOper === '3';
  if (needsRef && !ref) throw new NfseRefusal('E0905', `tpOper ${tpOper} without gRefNFSe`);
  if (!needsRef && ref) throw new NfseRefusal('E0906', `gRefNFSe with tpOper ${tpOper ?? 'absent'}`);
  // E0907: a referenced key with its check digit right.
  for (const key of ref ? textsOf(ref, 'refNFSe') : []) {
    if (String(nfseKeyCheckDigit(key.slice(0, 49))) !== key.slice(49)) throw new NfseRefusal('E0907', `refNFSe ${key}`);
  }
}

/** The element at a slash-separated path under `from`. */
function elementAt(from: Element, path: string): Element | undefined {
  let node: Element | undefined = from;
  for (const name of path.split('/')) node = node && childOf(node, name);
  return node;
}

function textsOf(parent: Element, tag: string): string[] {
  const out: string[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName === tag) out.push((n.textContent ?? '').trim());
  return out;
}

function elementsOf(parent: Element, tag: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName === tag) out.push(n as Element);
  return out;
}

function checkRecipient(g: Element): void {
  const dest = childOf(g, 'dest');
  if (!dest) return;
  // E0910: a recipient other than the taker only with indDest 1.
  const indDest = textAt(g, 'indDest');
  if (indDest !== '1') throw new NfseRefusal('E0910', `dest with indDest ${indDest}`);
  const cnpj = textAt(dest, 'CNPJ');
  if (cnpj !== undefined && !isValidCnpj(cnpj)) throw new NfseRefusal('E0911', `dest/CNPJ ${cnpj}`);
  const cpf = textAt(dest, 'CPF');
  if (cpf !== undefined && !isValidCpf(cpf)) throw new NfseRefusal('E0913', `dest/CPF ${cpf}`);
  const cMun = textAt(dest, 'end/endNac/cMun');
  if (cMun !== undefined && !municipality(cMun)) throw new NfseRefusal('E0920', `dest/end/endNac/cMun ${cMun}`);
  const email = textAt(dest, 'email');
  if (email !== undefined && !EMAIL.test(email)) throw new NfseRefusal('E0930', 'dest/email');
}

function checkRealEstate(g: Element, cTribNac: string, abroad: boolean): void {
  const imovel = childOf(g, 'imovel');
  const cIndOp = textAt(g, 'cIndOp')!;
  const construction = OBRA_CODES.has(cTribNac);
  // E0931: no imovel with a construction work code (that one carries serv/obra).
  if (imovel && construction) throw new NfseRefusal('E0931', `imovel with cTribNac ${cTribNac}`);
  // E0932 / E0928: otherwise imovel exactly for the operations with real estate (cIndOp 020101, 020201, 020301).
  if (!construction && REAL_ESTATE_OPS.has(cIndOp) && !imovel) throw new NfseRefusal('E0932', `cIndOp ${cIndOp} without imovel`);
  if (!construction && !REAL_ESTATE_OPS.has(cIndOp) && imovel) throw new NfseRefusal('E0928', `imovel with cIndOp ${cIndOp}`);
  const end = imovel && childOf(imovel, 'end');
  if (!end) return;
  // E0934 / E0935: the property's address is abroad exactly when the service is (cPaisPrestacao).
  if (abroad && !childOf(end, 'endExt')) throw new NfseRefusal('E0934', 'imovel/end without endExt with cPaisPrestacao');
  if (!abroad && childOf(end, 'endExt')) throw new NfseRefusal('E0935', 'imovel/end/endExt with cLocPrestacao');
}

/** E0940: the key's length by its type: NFS-e 50 digits, NF-e and CT-e 44. */
const DFE_KEY_LENGTH: Readonly<Record<string, number>> = { '1': 50, '2': 44, '3': 44 };

function checkReimbursements(g: Element, vServ: number): void {
  const group = elementAt(g, 'valores/gReeRepRes');
  if (!group) return;
  for (const doc of elementsOf(group, 'documentos')) {
    const dfe = childOf(doc, 'dFeNacional');
    if (dfe) {
      const length = DFE_KEY_LENGTH[textAt(dfe, 'tipoChaveDFe') ?? ''];
      const key = textAt(dfe, 'chaveDFe') ?? '';
      if (length !== undefined && !new RegExp(`^[0-9]{${length}}$`).test(key)) throw new NfseRefusal('E0940', `chaveDFe of ${key.length} characters for tipoChaveDFe ${textAt(dfe, 'tipoChaveDFe')}`);
    }
    const dtCompDoc = textAt(doc, 'dtCompDoc')!;
    const other = childOf(doc, 'docFiscalOutro');
    // E0942: fiscal documents outside the national repository only for a competence up to 2025 (the message: "posterior a 31 de dezembro de 2025").
    if (other && dtCompDoc > '2025-12-31') throw new NfseRefusal('E0942', `docFiscalOutro with dtCompDoc ${dtCompDoc}`);
    const cMun = other && textAt(other, 'cMunDocFiscal');
    if (cMun && !municipality(cMun)) throw new NfseRefusal('E0943', `cMunDocFiscal ${cMun}`);
    const cnpj = textAt(doc, 'fornec/CNPJ');
    if (cnpj !== undefined && !isValidCnpj(cnpj)) throw new NfseRefusal('E0945', `fornec/CNPJ ${cnpj}`);
    const cpf = textAt(doc, 'fornec/CPF');
    if (cpf !== undefined && !isValidCpf(cpf)) throw new NfseRefusal('E0947', `fornec/CPF ${cpf}`);
    // E0950 (and E0951, the same condition seen from dtCompDoc): issued on or after its competence.
    const dtEmiDoc = textAt(doc, 'dtEmiDoc')!;
    if (dtEmiDoc < dtCompDoc) throw new NfseRefusal('E0950', `dtEmiDoc ${dtEmiDoc}, dtCompDoc ${dtCompDoc}`);
    // E0952: a description only for type 99 (others).
    const tp = textAt(doc, 'tpReeRepRes');
    if (textAt(doc, 'xTpReeRepRes') !== undefined && tp !== '99') throw new NfseRefusal('E0952', `xTpReeRepRes with tpReeRepRes ${tp}`);
    // E0953: not above the value of the service.
    const value = Math.round(Number(textAt(doc, 'vlrReeRepRes')) * 100);
    if (value > vServ) throw new NfseRefusal('E0953', `vlrReeRepRes ${value / 100}, vServ ${vServ / 100}`);
  }
}

function checkClassification(g: Element, dCompet: string, tables: ReformTables | undefined): void {
  const trib = elementAt(g, 'valores/trib/gIBSCBS')!;
  // E0959 / E0970: the first 3 digits of cClassTrib (cClassTribReg) are its CST (CSTReg).
  const cst = textAt(trib, 'CST')!;
  const cClassTrib = textAt(trib, 'cClassTrib')!;
  if (cClassTrib.slice(0, 3) !== cst) throw new NfseRefusal('E0959', `cClassTrib ${cClassTrib}, CST ${cst}`);
  const regular = childOf(trib, 'gTribRegular');
  if (regular) {
    const cstReg = textAt(regular, 'CSTReg')!;
    const classReg = textAt(regular, 'cClassTribReg')!;
    if (classReg.slice(0, 3) !== cstReg) throw new NfseRefusal('E0970', `cClassTribReg ${classReg}, CSTReg ${cstReg}`);
  }
  // The table's rules after the group's own shape (the sheet gives no order of evaluation): with the official
  // table no class of the NFS-e asks for gTribRegular, so E0964 would otherwise hide E0970 for good.
  if (tables) checkClassTable(tables, cClassTrib, dCompet, regular !== undefined);
  // E0971 / E0972: the deferral group exactly when the CST's indicator (ind_gDif) asks for it.
  if (tables) checkDeferral(tables, cst, childOf(trib, 'gDif') !== undefined);
}

/** E0971 / E0972 from the CST table (Tabela de Indicadores de CST, ind_gDif; docs/fiscal/nfse-reform.md). */
function checkDeferral(tables: ReformTables, cst: string, hasDeferral: boolean): void {
  const wanted = cstEntry(tables, cst)?.indicators.ind_gDif === true;
  if (hasDeferral && !wanted) throw new NfseRefusal('E0971', `gDif with CST ${cst}`);
  if (!hasDeferral && wanted) throw new NfseRefusal('E0972', `CST ${cst} without gDif`);
}

/** E0958 / E0964 / E0965 from the cClassTrib table of the reform tables (docs/fiscal/nfse-reform.md). */
function checkClassTable(tables: ReformTables, cClassTrib: string, dCompet: string, hasRegular: boolean): void {
  // E0958: a class of the NFS-e (indNFSe) in force on the competence.
  const c = nfseClassOn(tables, cClassTrib, dCompet);
  if (!c) throw new NfseRefusal('E0958', `cClassTrib ${cClassTrib} on ${dCompet}`);
  // E0964 / E0965: gTribRegular exactly when the class's indicator (ind_gTribRegular) asks for it.
  if (hasRegular && !c.indicators.ind_gTribRegular) throw new NfseRefusal('E0964', `gTribRegular with cClassTrib ${cClassTrib}`);
  if (!hasRegular && c.indicators.ind_gTribRegular) throw new NfseRefusal('E0965', `cClassTrib ${cClassTrib} without gTribRegular`);
}

/** Throws NfseRefusal with the first rule of IBSCBS the DPS breaks; `tables`: the reform tables, when installed. */
export function checkDpsIbsCbs(dps: Element, f: DpsFacts, tables: ReformTables | undefined = installedReformTables()): void {
  const inf = childOf(dps, 'infDPS')!;
  const g = childOf(inf, 'IBSCBS');
  if (!g) return;
  checkOperation(g, f.cTribNac);
  checkRecipient(g);
  checkRealEstate(g, f.cTribNac, textAt(inf, 'serv/locPrest/cPaisPrestacao') !== undefined);
  checkReimbursements(g, f.values.vServ);
  checkClassification(g, f.dCompet, tables);
}
