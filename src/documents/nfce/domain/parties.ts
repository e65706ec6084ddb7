import type { DestModel, EmitModel, RespTecModel } from '../../../fiscal/xml/nfe/model.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import { HOMOLOGATION_RECIPIENT_NAME } from '../../../fiscal/layout/homologation.js';
import type { Issuer, RespTec } from './issuer-context.js';
import type { Sale } from './sale.js';
import { layoutText } from '../../../fiscal/layout/text.js';

// The parties of an NFC-e as the layout writes them: issuer (emit), consumer (dest) and the
// software house (infRespTec). None of them depends on the document number.

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

export function destOf(sale: Sale, tpAmb: 1 | 2): DestModel | undefined {
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

/** infRespTec without its CSRT: hashCSRT covers the access key (NT 2018.005), so it is per number. */
export function respTecOf(r: RespTec): RespTecModel {
  return { CNPJ: cleanTaxId(r.cnpj), xContato: layoutText(r.contato), email: r.email.trim(), fone: r.fone.replace(/\D/g, '') };
}
