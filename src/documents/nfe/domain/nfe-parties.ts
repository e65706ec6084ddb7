import type { DestModel } from '../../../fiscal/xml/nfe/model.js';
import type { AutXmlModel, ExportaModel, TranspModel } from '../../../fiscal/xml/nfe/model-55.js';
import { HOMOLOGATION_RECIPIENT_NAME } from '../../../fiscal/layout/homologation.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import { toScaled } from '../../../kernel/decimal.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import { carrierModel, MODALIDADES_FRETE } from '../../goods/domain/transport.js';
import { INDICADORES_IE, type NfeExport, type NfeRequest } from './nfe-request.js';
import { isAbroad } from './operation.js';

// The recipient, downloaders and freight of a valid NF-e request as the layout writes them.

export function nfeDestOf(req: NfeRequest, tpAmb: 1 | 2): DestModel {
  const d = req.destinatario;
  const a = d.address;
  const dest: DestModel = d.cnpj !== undefined ? { CNPJ: cleanTaxId(d.cnpj) } : d.cpf !== undefined ? { CPF: cleanTaxId(d.cpf) } : { idEstrangeiro: d.id_estrangeiro ?? '' };
  // MOC E04-20 (598): in homologation the recipient name is the mandatory test phrase.
  dest.xNome = tpAmb === 2 ? HOMOLOGATION_RECIPIENT_NAME : layoutText(d.name);
  const abroad = isAbroad(a);
  // TEndereco documentation: abroad, cMun 9999999, xMun EXTERIOR and UF EX.
  dest.ender = abroad
    ? { xLgr: layoutText(a.street), nro: layoutText(a.number), xBairro: layoutText(a.district), cMun: '9999999', xMun: 'EXTERIOR', UF: 'EX', cPais: a.country_code!, xPais: layoutText(a.country!) }
    : { xLgr: layoutText(a.street), nro: layoutText(a.number), xBairro: layoutText(a.district), cMun: a.city_code!, xMun: layoutText(a.city), UF: a.uf! };
  if (a.complement) dest.ender.xCpl = layoutText(a.complement);
  if (a.cep && !abroad) dest.ender.CEP = a.cep;
  if (a.phone) dest.ender.fone = a.phone;
  dest.indIEDest = INDICADORES_IE[d.indicador_ie];
  if (d.ie !== undefined) dest.IE = d.ie;
  if (d.email) dest.email = d.email.trim();
  return dest;
}

export function autXmlOf(req: NfeRequest): AutXmlModel[] {
  return (req.aut_xml ?? []).map((v) => (v.length === 11 ? { CPF: v } : { CNPJ: cleanTaxId(v) }));
}

export function transpOf(req: NfeRequest): TranspModel {
  const t = req.transporte;
  if (!t) return { modFrete: 9, vol: [] };
  const model: TranspModel = { modFrete: MODALIDADES_FRETE[t.modalidade], vol: [] };
  if (t.transportadora) model.transporta = carrierModel(t.transportadora);
  if (t.veiculo) {
    model.veicTransp = { placa: t.veiculo.placa };
    if (t.veiculo.uf) model.veicTransp.UF = t.veiculo.uf;
    if (t.veiculo.rntc) model.veicTransp.RNTC = layoutText(t.veiculo.rntc);
  }
  model.vol = (t.volumes ?? []).map((v) => {
    const vol: TranspModel['vol'][number] = {};
    if (v.quantity !== undefined) vol.qVol = v.quantity;
    if (v.species) vol.esp = layoutText(v.species);
    if (v.brand) vol.marca = layoutText(v.brand);
    if (v.numbering) vol.nVol = layoutText(v.numbering);
    if (v.net_weight !== undefined) vol.pesoL = Number(toScaled(v.net_weight, 3));
    if (v.gross_weight !== undefined) vol.pesoB = Number(toScaled(v.gross_weight, 3));
    return vol;
  });
  return model;
}

/** exporta (MOC ZA01): where the goods leave the country. */
export function exportaOf(e: NfeExport): ExportaModel {
  const out: ExportaModel = { UFSaidaPais: e.shipment_uf, xLocExporta: layoutText(e.shipment_place) };
  if (e.dispatch_place) out.xLocDespacho = layoutText(e.dispatch_place);
  return out;
}
