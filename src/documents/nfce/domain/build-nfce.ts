import type { DestModel, EmitModel, NfceModel } from '../../../fiscal/xml/nfe/model.js';
import { csrtHash } from '../../../fiscal/xml/nfe/inf-nfe.js';
import { signNfce } from '../../../fiscal/xml/nfe/sign-nfe.js';
import { buildAccessKey } from './access-key.js';
import { generateCnf, isValidCnf } from './cnf.js';
import { computeItems } from './compute-items.js';
import { HOMOLOGATION_RECIPIENT_NAME } from './homologation.js';
import { timeZoneOf, ufCode } from './ibge.js';
import type { NfceContext } from './issuer-context.js';
import { localDateTime } from './local-time.js';
import { builtNfceSummary, type BuiltNfce } from './built-nfce.js';
import { paymentPlan, salePayments } from './payments.js';
import type { Sale } from './sale.js';
import { cleanTaxId, isAlphanumericCnpj } from '../../../kernel/tax-id.js';
import { layoutText } from './text.js';
import { validateSale, type FieldError } from './validate-sale.js';

export type { BuiltNfce } from './built-nfce.js';

/** buildNfce was handed a sale that validateSale refuses: a bug in the caller. */
export class InvalidSaleError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(`sale is invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`);
    this.name = 'InvalidSaleError';
  }
}

const DEFAULT_VER_PROC = 'fiscal-gateway 0.1.0';

function emitOf(ctx: NfceContext): EmitModel {
  const { issuer } = ctx;
  const e = issuer.endereco;
  const ender: EmitModel['ender'] = {
    xLgr: layoutText(e.logradouro),
    nro: layoutText(e.numero),
    xBairro: layoutText(e.bairro),
    cMun: e.codigo_municipio,
    xMun: layoutText(e.municipio),
    UF: issuer.uf,
    CEP: e.cep.replace(/\D/g, ''),
  };
  if (e.complemento) ender.xCpl = layoutText(e.complemento);
  if (e.telefone) ender.fone = e.telefone.replace(/\D/g, '');
  const emit: EmitModel = { CNPJ: cleanTaxId(issuer.cnpj), xNome: layoutText(issuer.razao_social), ender, IE: issuer.ie.replace(/\D/g, ''), CRT: issuer.crt };
  if (issuer.nome_fantasia) emit.xFant = layoutText(issuer.nome_fantasia);
  return emit;
}

function destOf(sale: Sale, tpAmb: 1 | 2): DestModel | undefined {
  const c = sale.consumer;
  if (!c) return undefined;
  const dest: DestModel = c.cnpj !== undefined ? { CNPJ: cleanTaxId(c.cnpj) } : { CPF: cleanTaxId(c.cpf ?? '') };
  // 598: in homologation the recipient name is the mandatory test phrase.
  if (tpAmb === 2) dest.xNome = HOMOLOGATION_RECIPIENT_NAME;
  else if (c.name) dest.xNome = layoutText(c.name);
  if (c.address) {
    const a = c.address;
    dest.ender = { xLgr: layoutText(a.street), nro: layoutText(a.number), xBairro: layoutText(a.district), cMun: a.city_code, xMun: layoutText(a.city), UF: a.uf };
    if (a.complement) dest.ender.xCpl = layoutText(a.complement);
    if (a.cep) dest.ender.CEP = a.cep;
    if (a.phone) dest.ender.fone = a.phone;
  }
  if (c.email) dest.email = c.email.trim();
  return dest;
}

/** PL_009 cannot carry the reform groups nor a CNPJ with letters (its TCnpj is [0-9]{14}). */
function needsPl010(m: NfceModel): boolean {
  const cnpjs = [m.emit.CNPJ, m.dest?.CNPJ, m.respTec?.CNPJ, ...m.pag.detPag.map((p) => p.card?.CNPJ)];
  return m.reformTotal !== undefined || cnpjs.some((c) => c !== undefined && isAlphanumericCnpj(c));
}

/**
 * Turns a sale and the issuer context into a signed NFC-e 4.00 with its QR code: builds the NFC-e
 * model and hands it to fiscal/xml (signNfce writes, signs and adds infNFeSupl). Throws InvalidSaleError when
 * validateSale(sale, ctx.issuer) is not empty and Error for an unusable context.
 */
export function buildNfce(sale: Sale, ctx: NfceContext): BuiltNfce {
  const errors = validateSale(sale, ctx.issuer);
  if (errors.length > 0) throw new InvalidSaleError(errors);
  const { issuer, tpAmb } = ctx;
  const cUF = ufCode(issuer.uf);
  if (!cUF) throw new Error(`issuer UF ${issuer.uf} is unknown`);
  const tpEmis = ctx.tpEmis ?? 1;
  if (tpEmis === 9 && !ctx.contingency) throw new Error('tpEmis 9 (offline contingency) needs ctx.contingency { at, reason }');
  const cNF = ctx.cNF ?? generateCnf(ctx.nNF);
  if (!isValidCnf(cNF, ctx.nNF)) throw new Error('ctx.cNF breaks NT 2019.001 B03-10 (equal to nNF or a forbidden sequence)');

  const zone = timeZoneOf(issuer.endereco.codigo_municipio, issuer.uf);
  const dhEmi = localDateTime(ctx.emittedAt, zone);
  const cnpj = cleanTaxId(issuer.cnpj);
  const accessKey = buildAccessKey({ cUF, emittedYear: dhEmi.year, emittedMonth: dhEmi.month, cnpj, mod: 65, serie: ctx.serie, nNF: ctx.nNF, tpEmis, cNF });
  const computed = computeItems(sale, { crt: issuer.crt, tpAmb, taxReform: ctx.taxReform });
  const pag = paymentPlan(salePayments(sale), computed.total.vNF);

  const model: NfceModel = {
    accessKey,
    ide: {
      cUF, cNF, natOp: 'VENDA', serie: ctx.serie, nNF: ctx.nNF, dhEmi: dhEmi.text, cMunFG: issuer.endereco.codigo_municipio,
      tpEmis, cDV: Number(accessKey[43]), tpAmb, indPres: sale.home_delivery ? 4 : 1, verProc: ctx.verProc ?? DEFAULT_VER_PROC,
    },
    emit: emitOf(ctx),
    det: computed.det,
    total: computed.total,
    pag,
  };
  if (ctx.contingency && tpEmis === 9) {
    model.ide.contingency = { dhCont: localDateTime(ctx.contingency.at, zone).text, xJust: layoutText(ctx.contingency.reason) };
  }
  const dest = destOf(sale, tpAmb);
  if (dest) model.dest = dest;
  if (computed.reformTotal) model.reformTotal = computed.reformTotal;
  if (sale.additional_info) model.infAdic = { infCpl: layoutText(sale.additional_info) };
  if (ctx.respTec) {
    const r = ctx.respTec;
    model.respTec = { CNPJ: cleanTaxId(r.cnpj), xContato: layoutText(r.contato), email: r.email.trim(), fone: r.fone.replace(/\D/g, '') };
    if (r.csrt) model.respTec.csrt = { idCSRT: r.csrt.id.padStart(2, '0'), hashCSRT: csrtHash(r.csrt.token, accessKey) };
  }

  const signed = signNfce(model, ctx.signingKey, ctx.csc);
  return builtNfceSummary(model, {
    xml: signed.xml, qrCodeUrl: signed.qrCodeUrl, urlChave: signed.urlChave, digestValue: signed.digestValue,
    schemaPackage: needsPl010(model) ? 'PL_010' : 'PL_009',
  });
}
