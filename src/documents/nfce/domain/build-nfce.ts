import type { NfceModel } from '../../../fiscal/xml/nfe/model.js';
import { reformPartsOn } from '../../goods/domain/reform-schedule.js';
import { pisCofinsPartsOn } from '../../goods/domain/pis-cofins-schedule.js';
import { csrtHash } from '../../../fiscal/xml/nfe/inf-nfe.js';
import { signNfce } from '../../../fiscal/xml/nfe/sign-nfe.js';
import { buildAccessKey } from '../../../fiscal/layout/access-key.js';
import { generateCnf, isValidCnf } from '../../../fiscal/layout/cnf.js';
import { timeZoneOf, ufCode } from '../../../fiscal/layout/ibge.js';
import { stateFacts } from '../../../fiscal/states/states.js';
import type { DocumentContext, SaleContext } from '../../goods/domain/issuer-context.js';

/** Everything an NFC-e needs besides the sale: the issuer's sale data and the document's number and keys. */
export type NfceContext = SaleContext & DocumentContext;
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { builtNfceSummary, type BuiltNfce } from './built-nfce.js';
import { prepareNfce, type PreparedNfce } from './prepare-nfce.js';
import type { Sale } from './sale.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import type { FieldError } from './validate-sale.js';

export type { BuiltNfce } from './built-nfce.js';

/** buildNfce was handed a sale that validateSale refuses: a bug in the caller. */
export class InvalidSaleError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(`sale is invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`);
    this.name = 'InvalidSaleError';
  }
}

const DEFAULT_VER_PROC = 'fiscal-gateway 0.1.0';

/**
 * The signed NFC-e 4.00 of a prepared sale for one number: only what the number decides is done
 * here (cNF, access key, ide, hashCSRT); the model goes to fiscal/xml (signNfce writes, signs and
 * adds infNFeSupl with the QR code). The prepared sale is left as it was, for the next number.
 * Throws Error for an unusable context.
 */
export function buildPreparedNfce(prepared: PreparedNfce, ctx: DocumentContext): BuiltNfce {
  const { issuer, tpAmb } = prepared;
  const cUF = ufCode(issuer.uf);
  if (!cUF) throw new Error(`issuer UF ${issuer.uf} is unknown`);
  const tpEmis = ctx.tpEmis ?? 1;
  if (tpEmis !== 1 && !ctx.contingency) throw new Error(`tpEmis ${tpEmis} (contingency) needs ctx.contingency { at, reason }`);
  // MOC B22-34 (714): EPEC only where the state runs it (src/fiscal/states/states.ts nfceEpec).
  if (tpEmis === 4 && !stateFacts(issuer.uf)?.nfceEpec) throw new Error(`tpEmis 4 (EPEC) on an NFC-e of ${issuer.uf}, whose state runs no NFC-e EPEC`);
  const cNF = ctx.cNF ?? generateCnf(ctx.nNF);
  if (!isValidCnf(cNF, ctx.nNF)) throw new Error('ctx.cNF breaks NT 2019.001 B03-10 (equal to nNF or a forbidden sequence)');

  const zone = timeZoneOf(issuer.endereco.codigo_municipio, issuer.uf);
  const dhEmi = localDateTime(ctx.emittedAt, zone);
  const cnpj = cleanTaxId(issuer.cnpj);
  const accessKey = buildAccessKey({ cUF, emittedYear: dhEmi.year, emittedMonth: dhEmi.month, cnpj, mod: 65, serie: ctx.serie, nNF: ctx.nNF, tpEmis, cNF });
  const model: NfceModel = {
    // The IBS/CBS groups as the note's local date decides: rates and base of its year, none for a
    // Simples Nacional note dated 2026 (LC 214/2025 art. 348 III c), always from 2027; no PIS/COFINS
    // group from 2027 (both end with 2026: pis-cofins-schedule.ts).
    ...reformPartsOn(pisCofinsPartsOn(prepared.parts, 65, dhEmi.year), prepared.reform, { crt: issuer.crt, taxReform: prepared.taxReform, date: dhEmi.text, tables: prepared.reformTables }),
    accessKey,
    ide: {
      cUF, cNF, natOp: 'VENDA', serie: ctx.serie, nNF: ctx.nNF, dhEmi: dhEmi.text, cMunFG: issuer.endereco.codigo_municipio,
      tpEmis, cDV: Number(accessKey[43]), tpAmb, indPres: prepared.indPres, verProc: ctx.verProc ?? DEFAULT_VER_PROC,
    },
  };
  // MOC B28-20 (557): dhCont and xJust for every contingency tpEmis (4 and 9 here).
  if (ctx.contingency && tpEmis !== 1) {
    model.ide.contingency = { dhCont: localDateTime(ctx.contingency.at, zone).text, xJust: layoutText(ctx.contingency.reason) };
  }
  const csrt = ctx.csrt ?? prepared.csrt;
  if (model.respTec && csrt) {
    model.respTec = { ...model.respTec, csrt: { idCSRT: csrt.id.padStart(2, '0'), hashCSRT: csrtHash(csrt.token, accessKey) } };
  }

  const signed = signNfce(model, ctx.signingKey, ctx.csc);
  return builtNfceSummary(model, {
    xml: signed.xml, qrCodeUrl: signed.qrCodeUrl, urlChave: signed.urlChave, digestValue: signed.digestValue,
    schemaPackage: model.reformTotal ? 'PL_010' : prepared.schemaPackage,
  });
}

/**
 * prepareNfce and buildPreparedNfce in one call, for a sale built for a single number. Throws
 * InvalidSaleError when validateSale(sale, ctx.issuer) is not empty and Error for an unusable context.
 */
export function buildNfce(sale: Sale, ctx: NfceContext): BuiltNfce {
  const prepared = prepareNfce(sale, ctx);
  if (!prepared.ok) throw new InvalidSaleError(prepared.errors);
  return buildPreparedNfce(prepared.nfce, ctx);
}
