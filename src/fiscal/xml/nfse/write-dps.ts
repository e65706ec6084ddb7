// DpsModel -> DPS 1.01 text in XSD order (TCInfDPS and its types, tiposComplexos_v1.01.xsd), already in
// Canonical XML 1.0 form (xml-text.ts) so the bytes written are the bytes signed. No whitespace between
// tags (docs/fiscal/signature.md: pretty-printed signed documents fail verification).
import { formatCents } from '../../../kernel/decimal.js';
import { el, leaf, optLeaf } from '../xml-text.js';
import { buildDpsId } from './dps-id.js';
import { nfseRoot, signableTexts, type NfseSignableTexts } from './nfse-texts.js';
import type { DpsAddress, DpsComExt, DpsIbsCbs, DpsModel, DpsPartyId, DpsPessoa, DpsPrestador, DpsServ, DpsSubst, DpsTotTrib, DpsValores } from './model.js';

/** TSDec15V2 / TSDec1V2 / TSDec2V2 / TSDec3V2: two decimals (money in cents, percentages in hundredths). */
const dec = (name: string, hundredths: number): string => leaf(name, formatCents(hundredths));
const optDec = (name: string, hundredths: number | undefined): string => (hundredths === undefined ? '' : dec(name, hundredths));

export const DPS_VERSION = '1.01';

/** The DPS Id derived from the fields it repeats (docs/fiscal/nfse-national.md#dps; a mismatch is E0004). */
export function dpsIdOf(model: DpsModel): string {
  const id = model.prest.id;
  if (!('CNPJ' in id) && !('CPF' in id)) throw new Error('the provider of a DPS Id is identified by CNPJ or CPF');
  return buildDpsId({
    cLocEmi: model.cLocEmi,
    inscriptionType: 'CNPJ' in id ? 2 : 1,
    taxId: 'CNPJ' in id ? id.CNPJ : id.CPF,
    serie: model.serie,
    nDPS: model.nDPS,
  });
}

function partyId(id: DpsPartyId): string {
  if ('CNPJ' in id) return leaf('CNPJ', id.CNPJ);
  if ('CPF' in id) return leaf('CPF', id.CPF);
  if ('NIF' in id) return leaf('NIF', id.NIF);
  return leaf('cNaoNIF', id.cNaoNIF);
}

function address(a: DpsAddress): string {
  const place =
    'endNac' in a.place
      ? el('endNac', leaf('cMun', a.place.endNac.cMun) + leaf('CEP', a.place.endNac.CEP))
      : el('endExt', leaf('cPais', a.place.endExt.cPais) + leaf('cEndPost', a.place.endExt.cEndPost) + leaf('xCidade', a.place.endExt.xCidade) + leaf('xEstProvReg', a.place.endExt.xEstProvReg));
  return el('end', place + leaf('xLgr', a.xLgr) + leaf('nro', a.nro) + optLeaf('xCpl', a.xCpl) + leaf('xBairro', a.xBairro));
}

/** TCInfoPrestador: CNPJ|CPF|NIF|cNaoNIF, CAEPF, IM, (xNome, end: never with tpEmit 1), fone, email, regTrib. */
function prest(p: DpsPrestador): string {
  const r = p.regTrib;
  const regTrib = el('regTrib', leaf('opSimpNac', r.opSimpNac) + optLeaf('regApTribSN', r.regApTribSN) + leaf('regEspTrib', r.regEspTrib));
  return el('prest', partyId(p.id) + optLeaf('IM', p.IM) + optLeaf('fone', p.fone) + optLeaf('email', p.email) + regTrib);
}

/** TCInfoPessoa: CNPJ|CPF|NIF|cNaoNIF, CAEPF, IM, xNome, end, fone, email. */
function pessoa(name: 'toma' | 'interm', p: DpsPessoa): string {
  return el(
    name,
    partyId(p.id) + optLeaf('CAEPF', p.CAEPF) + optLeaf('IM', p.IM) + leaf('xNome', p.xNome) + (p.end ? address(p.end) : '') + optLeaf('fone', p.fone) + optLeaf('email', p.email),
  );
}

/** TCComExterior in XSD order. */
function comExt(c: DpsComExt): string {
  return el(
    'comExt',
    leaf('mdPrestacao', c.mdPrestacao) + leaf('vincPrest', c.vincPrest) + leaf('tpMoeda', c.tpMoeda) + dec('vServMoeda', c.vServMoeda) +
      leaf('mecAFComexP', c.mecAFComexP) + leaf('mecAFComexT', c.mecAFComexT) + leaf('movTempBens', c.movTempBens) + optLeaf('nDI', c.nDI) + optLeaf('nRE', c.nRE) + leaf('mdic', c.mdic),
  );
}

/** TCServ: locPrest, cServ, comExt, (obra, atvEvento not modelled), infoCompl (docRef, xPed, xInfComp). */
function serv(s: DpsServ): string {
  const loc = 'cLocPrestacao' in s.locPrest ? leaf('cLocPrestacao', s.locPrest.cLocPrestacao) : leaf('cPaisPrestacao', s.locPrest.cPaisPrestacao);
  const cServ = leaf('cTribNac', s.cTribNac) + optLeaf('cTribMun', s.cTribMun) + leaf('xDescServ', s.xDescServ) + optLeaf('cNBS', s.cNBS) + optLeaf('cIntContrib', s.cIntContrib);
  const c = s.infoCompl;
  const infoCompl = c && (c.docRef || c.xPed || c.xInfComp) ? el('infoCompl', optLeaf('docRef', c.docRef) + optLeaf('xPed', c.xPed) + optLeaf('xInfComp', c.xInfComp)) : '';
  return el('serv', el('locPrest', loc) + el('cServ', cServ) + (s.comExt ? comExt(s.comExt) : '') + infoCompl);
}

/** TCSubstituicao: chSubstda, cMotivo, xMotivo. */
const subst = (s: DpsSubst): string => el('subst', leaf('chSubstda', s.chSubstda) + leaf('cMotivo', s.cMotivo) + optLeaf('xMotivo', s.xMotivo));

function totTrib(t: DpsTotTrib): string {
  if ('vTotTrib' in t) return el('totTrib', el('vTotTrib', dec('vTotTribFed', t.vTotTrib.vTotTribFed) + dec('vTotTribEst', t.vTotTrib.vTotTribEst) + dec('vTotTribMun', t.vTotTrib.vTotTribMun)));
  if ('pTotTrib' in t) return el('totTrib', el('pTotTrib', dec('pTotTribFed', t.pTotTrib.pTotTribFed) + dec('pTotTribEst', t.pTotTrib.pTotTribEst) + dec('pTotTribMun', t.pTotTrib.pTotTribMun)));
  if ('indTotTrib' in t) return el('totTrib', leaf('indTotTrib', t.indTotTrib));
  return el('totTrib', dec('pTotTribSN', t.pTotTribSN));
}

/** TCInfoValores: vServPrest, vDescCondIncond, vDedRed, trib (tribMun, tribFed, totTrib). */
function valores(v: DpsValores): string {
  const vServPrest = el('vServPrest', optDec('vReceb', v.vReceb) + dec('vServ', v.vServ));
  const desc = v.vDescIncond !== undefined || v.vDescCond !== undefined ? el('vDescCondIncond', optDec('vDescIncond', v.vDescIncond) + optDec('vDescCond', v.vDescCond)) : '';
  const dedRed = v.dedRed ? el('vDedRed', 'pDR' in v.dedRed ? dec('pDR', v.dedRed.pDR) : dec('vDR', v.dedRed.vDR)) : '';
  const m = v.tribMun;
  // TCTribMunicipal: tribISSQN, cPaisResult, tpImunidade, exigSusp, (BM not modelled), tpRetISSQN, pAliq.
  const exigSusp = m.exigSusp ? el('exigSusp', leaf('tpSusp', m.exigSusp.tpSusp) + leaf('nProcesso', m.exigSusp.nProcesso)) : '';
  const tribMun = el('tribMun', leaf('tribISSQN', m.tribISSQN) + optLeaf('cPaisResult', m.cPaisResult) + optLeaf('tpImunidade', m.tpImunidade) + exigSusp + leaf('tpRetISSQN', m.tpRetISSQN) + optDec('pAliq', m.pAliq));
  let tribFed = '';
  if (v.tribFed) {
    const f = v.tribFed;
    const pc = f.piscofins;
    const piscofins = pc
      ? el(
          'piscofins',
          leaf('CST', pc.CST) + optDec('vBCPisCofins', pc.vBCPisCofins) + optDec('pAliqPis', pc.pAliqPis) + optDec('pAliqCofins', pc.pAliqCofins) +
            optDec('vPis', pc.vPis) + optDec('vCofins', pc.vCofins) + optLeaf('tpRetPisCofins', pc.tpRetPisCofins),
        )
      : '';
    tribFed = el('tribFed', piscofins + optDec('vRetCP', f.vRetCP) + optDec('vRetIRRF', f.vRetIRRF) + optDec('vRetCSLL', f.vRetCSLL));
  }
  return el('valores', vServPrest + desc + dedRed + el('trib', tribMun + tribFed + totTrib(v.totTrib)));
}

/** TCRTCInfoIBSCBS: finNFSe, indFinal, cIndOp, indDest, valores/trib/gIBSCBS (CST, cClassTrib). */
function ibsCbs(g: DpsIbsCbs): string {
  const gIBSCBS = el('gIBSCBS', leaf('CST', g.CST) + leaf('cClassTrib', g.cClassTrib));
  return el('IBSCBS', leaf('finNFSe', g.finNFSe) + optLeaf('indFinal', g.indFinal) + leaf('cIndOp', g.cIndOp) + leaf('indDest', g.indDest) + el('valores', el('trib', gIBSCBS)));
}

/** infDPS as placed inside DPS and in its canonical form. */
export type DpsTexts = NfseSignableTexts;

/** infDPS in TCInfDPS order: tpAmb .. tpEmit, (cMotivoEmisTI, chNFSeRej not modelled), cLocEmi, subst, prest, toma, interm, serv, valores, IBSCBS. */
export function infDpsTexts(model: DpsModel): DpsTexts {
  const id = dpsIdOf(model);
  const body =
    leaf('tpAmb', model.tpAmb) + leaf('dhEmi', model.dhEmi) + leaf('verAplic', model.verAplic) + leaf('serie', model.serie) + leaf('nDPS', model.nDPS) +
    leaf('dCompet', model.dCompet) + leaf('tpEmit', model.tpEmit) + leaf('cLocEmi', model.cLocEmi) + (model.subst ? subst(model.subst) : '') + prest(model.prest) +
    (model.toma ? pessoa('toma', model.toma) : '') + (model.interm ? pessoa('interm', model.interm) : '') + serv(model.serv) + valores(model.valores) +
    (model.IBSCBS ? ibsCbs(model.IBSCBS) : '');
  return signableTexts('infDPS', id, body);
}

/** The DPS document around an infDPS (and its Signature, the last child of DPS). */
export function dpsXml(embeddedInfDps: string, signatureXml = ''): string {
  return nfseRoot('DPS', DPS_VERSION, embeddedInfDps + signatureXml);
}

/** The unsigned DPS document. */
export function writeDps(model: DpsModel): string {
  return dpsXml(infDpsTexts(model).embedded);
}
