import type { DestModel } from '../../../fiscal/xml/nfe/model.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import { HOMOLOGATION_RECIPIENT_NAME } from '../../../fiscal/layout/homologation.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import type { Sale } from './sale.js';

// The NFC-e's consumer as the layout writes it (dest): optional, identified by CPF or CNPJ.

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
