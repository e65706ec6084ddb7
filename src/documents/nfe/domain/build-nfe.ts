import { buildAccessKey } from '../../../fiscal/layout/access-key.js';
import { reformPartsOn } from '../../goods/domain/reform-schedule.js';
import { pisCofinsPartsOn } from '../../goods/domain/pis-cofins-schedule.js';
import { governmentReducerOn, SUPPLY_OPERATION, withGovernmentPurchaseParts } from '../../goods/domain/reform-government-purchase.js';
import { generateCnf, isValidCnf } from '../../../fiscal/layout/cnf.js';
import { timeZoneOf, ufCode } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { csrtHash } from '../../../fiscal/xml/nfe/inf-nfe.js';
import type { NfeModel } from '../../../fiscal/xml/nfe/model-55.js';
import { signNfe } from '../../../fiscal/xml/nfe/sign-nfe.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import { builtNfeTotals, type BuiltNfeTotals } from './built-nfe.js';
import { svcTpEmis, type NfeDocumentContext } from './nfe-context.js';
import type { PreparedNfe } from './prepare-nfe.js';

// One numbered, signed NF-e of a prepared request: only what the number decides is done here.

const DEFAULT_VER_PROC = 'fiscal-gateway 0.1.0';

export interface BuiltNfe {
  /** `<NFe xmlns="http://www.portalfiscal.inf.br/nfe">` with infNFe and Signature. */
  xml: string;
  accessKey: string;
  cNF: string;
  nNF: number;
  serie: number;
  /** dhEmi as written (issuer local offset). */
  dhEmi: string;
  /** base64 SHA-1 of the canonical infNFe (protNFe/digVal must match it). */
  digestValue: string;
  schemaPackage: 'PL_009' | 'PL_010';
  /** 1 normal, 4 EPEC, 6 SVC-AN, 7 SVC-RS. */
  tpEmis: 1 | 4 | 6 | 7;
  /** Totals in reais, for the answer and the DANFE. */
  totals: BuiltNfeTotals;
  /** The model written, for the DANFE and the answer (amounts in integer cents). */
  model: NfeModel;
}

/** Throws Error for an unusable context (unknown state, a cNF that breaks NT 2019.001 B03-10). */
export function buildPreparedNfe(prepared: PreparedNfe, ctx: NfeDocumentContext): BuiltNfe {
  const { issuer, tpAmb } = prepared;
  const cUF = ufCode(issuer.uf);
  if (!cUF) throw new Error(`issuer UF ${issuer.uf} is unknown`);
  const cNF = ctx.cNF ?? generateCnf(ctx.nNF);
  if (!isValidCnf(cNF, ctx.nNF)) throw new Error('ctx.cNF breaks NT 2019.001 B03-10 (equal to nNF or a forbidden sequence)');
  const zone = timeZoneOf(issuer.endereco.codigo_municipio, issuer.uf);
  const dhEmi = localDateTime(ctx.emittedAt, zone);
  const c = ctx.contingency;
  // MOC B22 tpEmis: 4 EPEC (docs/fiscal/epec.md) or the state's SVC (6/7); 1 without contingency.
  const tpEmis = c ? (c.kind === 'epec' ? 4 : svcTpEmis(issuer.uf)) : 1;
  const xJust = c ? layoutText(c.reason) : '';
  // XSD xJust: 15 to 256 characters; MOC B28-30 (558): dhCont not after the emission.
  if (c && (xJust.length < 15 || xJust.length > 256)) throw new Error('ctx.contingency.reason must have 15 to 256 characters (xJust)');
  if (c && c.at.getTime() > ctx.emittedAt.getTime()) throw new Error('ctx.contingency.at must not be after emittedAt (dhCont)');
  const accessKey = buildAccessKey({ cUF, emittedYear: dhEmi.year, emittedMonth: dhEmi.month, cnpj: cleanTaxId(issuer.cnpj), mod: 55, serie: ctx.serie, nNF: ctx.nNF, tpEmis, cNF });
  const purchase = prepared.governmentPurchase;
  const pRedutor = purchase ? governmentReducerOn(dhEmi.text) : null;
  // prepare refuses a purchase on a day whose reducer is not known; only a note prepared in 2026 and dated 2027 gets here.
  if (purchase && pRedutor === null) throw new Error(`the government purchase reducer (pRedutor) of ${dhEmi.text.slice(0, 10)} is not known (reform-government-purchase.ts)`);
  const model: NfeModel = {
    // The IBS/CBS groups as the note's local date decides: rates and base of its year, none for a
    // Simples Nacional note dated 2026 (LC 214/2025 art. 348 III c), always from 2027; a government
    // purchase's gRed and gTribCompraGov in each item (NT 2025.002-RTC UB26-20, UB82a-10); PIS and COFINS
    // CST 08 from 2027 (both end with 2026; MOC Q01-20/S01-20 still ask for the groups: pis-cofins-schedule.ts).
    ...withGovernmentPurchaseParts(reformPartsOn(pisCofinsPartsOn(prepared.parts, 55, dhEmi.year), prepared.reform, { crt: issuer.crt, taxReform: prepared.taxReform, date: dhEmi.text, tables: prepared.reformTables }), pRedutor, dhEmi.year),
    accessKey,
    ide: {
      ...prepared.ide, NFref: [...prepared.ide.NFref],
      cUF, cNF, mod: 55, serie: ctx.serie, nNF: ctx.nNF, dhEmi: dhEmi.text, cMunFG: issuer.endereco.codigo_municipio,
      // tpImp 1: portrait DANFE (4 and 5 are NFC-e only, MOC B21-20, 710).
      tpImp: 1, tpEmis, cDV: Number(accessKey[43]), tpAmb, verProc: ctx.verProc ?? DEFAULT_VER_PROC,
    },
  };
  if (c) model.ide.contingency = { dhCont: localDateTime(c.at, zone).text, xJust };
  if (purchase && pRedutor !== null && model.reformTotal) model.ide.gCompraGov = { tpEnteGov: purchase.tpEnteGov, pRedutor, tpOperGov: SUPPLY_OPERATION };
  const b = prepared.billing;
  if (b) {
    // MOC Y01-20 (905): with cobr, nFat, vOrig and vLiq are informed; nFat defaults to the note number.
    model.cobr = { fat: { nFat: b.nFat ?? String(ctx.nNF), vOrig: b.vOrig, vDesc: b.vDesc, vLiq: b.vLiq }, dup: b.dup.map((d) => ({ ...d })) };
  }
  const csrt = ctx.csrt ?? prepared.csrt;
  if (model.respTec && csrt) {
    model.respTec = { ...model.respTec, csrt: { idCSRT: csrt.id.padStart(2, '0'), hashCSRT: csrtHash(csrt.token, accessKey) } };
  }
  const signed = signNfe(model, ctx.signingKey);
  return {
    xml: signed.xml, accessKey, cNF, nNF: ctx.nNF, serie: ctx.serie, dhEmi: dhEmi.text, digestValue: signed.digestValue,
    schemaPackage: model.reformTotal ? 'PL_010' : prepared.schemaPackage, tpEmis, totals: builtNfeTotals(model), model,
  };
}
