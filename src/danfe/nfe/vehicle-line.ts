import { child, text, type XmlNode } from '../xml-node.js';

// The new-vehicle group (prod/veicProd, docs/fiscal/vehicles-and-foreign-trade.md) as one line printed under the
// item's description on the NF-e DANFE, before its other additional text, as dealers print it for the vehicle's
// registration: chassis, colour, model/manufacture year, engine number, RENAVAM make/model code, fuel, power,
// displacement and the restriction on the title.

const RESTRICTION: Readonly<Record<string, string>> = {
  '0': 'Não há', '1': 'Alienação Fiduciária', '2': 'Arrendamento Mercantil', '3': 'Reserva de Domínio', '4': 'Penhor de Veículos', '9': 'Outras',
};

export function vehicleLine(prod: XmlNode | undefined): string | undefined {
  const v = child(prod, 'veicProd');
  const chassis = text(v, 'chassi');
  if (chassis === undefined) return undefined;
  const rest = text(v, 'tpRest') ?? '';
  return [
    `Chassi: ${chassis}`,
    `Cor: ${text(v, 'xCor') ?? ''}`,
    `Ano Mod/Fab: ${text(v, 'anoMod') ?? ''}/${text(v, 'anoFab') ?? ''}`,
    `Motor: ${text(v, 'nMotor') ?? ''}`,
    `Marca/Modelo: ${text(v, 'cMod') ?? ''}`,
    `Comb: ${text(v, 'tpComb') ?? ''}`,
    `Pot: ${text(v, 'pot') ?? ''} CV`,
    `Cil: ${text(v, 'cilin') ?? ''} cc`,
    `Restrição: ${RESTRICTION[rest] ?? rest}`,
  ].join(' ');
}

/** `extra` (the medicine and fuel lines and infAdProd) with the vehicle line before it (either may be absent). */
export function withVehicleLine(prod: XmlNode | undefined, extra: string | undefined): string | undefined {
  const line = vehicleLine(prod);
  if (line === undefined) return extra;
  return extra === undefined ? line : `${line} - ${extra}`;
}
