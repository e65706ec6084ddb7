import type { EmitModel, RespTecModel } from '../../../fiscal/xml/nfe/model.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import type { Issuer, RespTec } from './issuer-context.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import type { FieldError } from '../../../fiscal/layout/field-rules.js';
import { respTecRequired } from '../../../fiscal/states/states.js';

// The parties both goods models write the same way: the issuer (emit) and the software house
// (infRespTec). Neither depends on the document number.

export function emitOf(issuer: Issuer): EmitModel {
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

/** infRespTec without its CSRT: hashCSRT covers the access key (NT 2018.005), so it is per number. */
export function respTecOf(r: RespTec): RespTecModel {
  return { CNPJ: cleanTaxId(r.cnpj), xContato: layoutText(r.contato), email: r.email.trim(), fone: r.fone.replace(/\D/g, '') };
}

/**
 * MOC ZD01-10 (972): AM, MS, PE, PR, SC and TO reject an NF-e or NFC-e without infRespTec
 * (docs/fiscal/technical-responsible.md). The setting lives outside the request, so the field names it.
 */
export function respTecMissing(uf: string, respTec: RespTec | undefined): FieldError | null {
  if (respTec || !respTecRequired(uf)) return null;
  return {
    field: 'technical_responsible',
    message:
      `is required for an issuer in ${uf} (infRespTec, MOC ZD01-10; the state rejects the note with 972): set the software house with ` +
      'PUT /v1/account/technical-responsible, or PUT /v1/issuers/{id}/technical-responsible for this issuer',
    rule: 'ZD01-10',
  };
}
