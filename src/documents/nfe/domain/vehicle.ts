import { Type, type Static } from 'typebox';
import { checkText, fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import type { VeicProdModel } from '../../../fiscal/xml/nfe/veic-prod.js';

// items[].vehicle of an NF-e: prod/veicProd of leiauteNFe_v4.00.xsd (MOC 7.0 Anexo I group J), the new vehicle a
// dealer or a manufacturer sells. Every element is required by the XSD; the schema carries the XSD's patterns and
// enumerations, checkVehicle the free-text limits (TString) and the MOC rules the group meets;
// docs/fiscal/vehicles-and-foreign-trade.md.

const code = (pattern: string, description: string, example: string) => Type.String({ pattern, description, examples: [example] });
const text = (min: number, max: number, description: string, example: string) => Type.String({ minLength: min, maxLength: max, description, examples: [example] });

export const VehicleSchema = Type.Object(
  {
    operation_type: Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('2'), Type.Literal('3')], {
      description: 'tpOp: 1 dealer sale (venda concessionária), 2 direct billing (faturamento direto, not offered: it needs the delivery place, MOC C18-20), 3 direct sale to large buyers (venda direta), 0 other.',
      examples: ['1'],
    }),
    chassis: code('^[A-Z0-9]{17}$', 'chassi: the chassis number (VIN), 17 upper-case letters and digits.', '9BWZZZ377VT004251'),
    color_code: text(1, 4, 'cCor: the colour as the manufacturer codes it, 1-4 characters.', '0040'),
    color_description: text(1, 40, 'xCor: the colour name, 1-40 characters.', 'BRANCO CRISTAL'),
    power: text(1, 4, 'pot: the engine\'s maximum power in CV (horsepower), 1-4 characters.', '116'),
    displacement: text(1, 4, 'cilin: the engine displacement in cm3 (cilindradas), 1-4 characters.', '999'),
    net_weight: text(1, 9, 'pesoL: the net weight, 1-9 characters as written on the vehicle\'s records.', '1025'),
    gross_weight: text(1, 9, 'pesoB: the gross weight, 1-9 characters.', '1480'),
    serial_number: text(1, 9, 'nSerie: the serial (série), 1-9 characters.', 'AB1234'),
    fuel_type: text(1, 2, 'tpComb: the fuel in the RENAVAM table, 1-2 characters (01 alcohol, 02 gasoline, 03 diesel, 16 alcohol/gasoline, 17 gasoline/alcohol/CNG, 18 gasoline/electric).', '16'),
    engine_number: text(1, 21, 'nMotor: the engine number, 1-21 characters.', 'CSS123456'),
    max_traction: text(1, 9, 'CMT: the maximum traction capacity in tonnes (4 decimals), 1-9 characters.', '1.4800'),
    wheelbase: text(1, 4, 'dist: the distance between axles, 1-4 characters.', '2566'),
    model_year: code('^[0-9]{4}$', 'anoMod: the model year, 4 digits.', '2027'),
    manufacture_year: code('^[0-9]{4}$', 'anoFab: the year of manufacture, 4 digits.', '2026'),
    paint_type: text(1, 1, 'tpPint: the paint type, 1 character (as on the manufacturer\'s records, e.g. S solid, M metallic).', 'M'),
    vehicle_type: code('^[0-9]{1,2}$', 'tpVeic: the vehicle type in the RENAVAM table, 1-2 digits (e.g. 06 car).', '06'),
    vehicle_species: code('^[0-9]$', 'espVeic: the vehicle species in the RENAVAM table, 1 digit (e.g. 1 passenger).', '1'),
    vin_condition: Type.Union([Type.Literal('N'), Type.Literal('R')], { description: 'VIN: N normal chassis number, R re-stamped (remarcado).', examples: ['N'] }),
    condition: Type.Union([Type.Literal('1'), Type.Literal('2'), Type.Literal('3')], { description: 'condVeic: 1 finished (acabado), 2 unfinished (inacabado), 3 semi-finished (semi-acabado).', examples: ['1'] }),
    model_code: code('^[0-9]{1,6}$', 'cMod: the make/model code in the RENAVAM table, 1-6 digits.', '110435'),
    denatran_color: code('^[0-9]{1,2}$', 'cCorDENATRAN: the DENATRAN colour code, 1-2 digits (01 yellow, 02 blue, 03 beige, 04 white, 05 grey, 06 golden, 07 garnet, 08 orange, 09 brown, 10 silver, 11 black, 12 pink, 13 purple, 14 green, 15 red, 16 fantasy).', '04'),
    seating_capacity: code('^[0-9]{1,3}$', 'lota: the most passengers seated, the driver included, 1-3 digits.', '5'),
    restriction: Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('2'), Type.Literal('3'), Type.Literal('4'), Type.Literal('9')], {
      description: 'tpRest: 0 none, 1 fiduciary lien (alienação fiduciária), 2 leasing (arrendamento mercantil), 3 retention of title (reserva de domínio), 4 pledge (penhor), 9 other.',
      examples: ['0'],
    }),
  },
  { additionalProperties: false, description: 'veicProd: the new vehicle an NF-e item sells (MOC group J); NF-e only (an NFC-e never carries it, MOC J01-10, 736). Not with medicine or fuel on the same item: the layout gives an item one of them.' },
);

export type Vehicle = Static<typeof VehicleSchema>;

/** The request's field for each veicProd element (the XSD path mapper and the DANFE read it). */
export const VEHICLE_FIELD: Readonly<Record<keyof VeicProdModel, keyof Vehicle>> = {
  tpOp: 'operation_type', chassi: 'chassis', cCor: 'color_code', xCor: 'color_description', pot: 'power', cilin: 'displacement',
  pesoL: 'net_weight', pesoB: 'gross_weight', nSerie: 'serial_number', tpComb: 'fuel_type', nMotor: 'engine_number', CMT: 'max_traction',
  dist: 'wheelbase', anoMod: 'model_year', anoFab: 'manufacture_year', tpPint: 'paint_type', tpVeic: 'vehicle_type', espVeic: 'vehicle_species',
  VIN: 'vin_condition', condVeic: 'condition', cMod: 'model_code', cCorDENATRAN: 'denatran_color', lota: 'seating_capacity', tpRest: 'restriction',
};

// The TString elements (free text: the layout's characters, no leading or trailing space) with their lengths.
const TEXT_LIMITS: ReadonlyArray<readonly [keyof Vehicle, number, number]> = [
  ['color_code', 1, 4], ['color_description', 1, 40], ['power', 1, 4], ['displacement', 1, 4], ['net_weight', 1, 9], ['gross_weight', 1, 9],
  ['serial_number', 1, 9], ['fuel_type', 1, 2], ['engine_number', 1, 21], ['max_traction', 1, 9], ['wheelbase', 1, 4], ['paint_type', 1, 1],
];

// The coded elements with the XSD's pattern or enumeration (re-checked here for requests that do not come through
// the HTTP schema, e.g. the batch and property paths): field, pattern, what it must be.
const CODES: ReadonlyArray<readonly [keyof Vehicle, RegExp, string]> = [
  ['operation_type', /^[0-3]$/, 'must be one of: 0, 1, 2, 3'],
  ['chassis', /^[A-Z0-9]{17}$/, 'must be 17 upper-case letters and digits'],
  ['model_year', /^[0-9]{4}$/, 'must be 4 digits'],
  ['manufacture_year', /^[0-9]{4}$/, 'must be 4 digits'],
  ['vehicle_type', /^[0-9]{1,2}$/, 'must be 1 to 2 digits'],
  ['vehicle_species', /^[0-9]$/, 'must be 1 digit'],
  ['vin_condition', /^[NR]$/, 'must be one of: N, R'],
  ['condition', /^[1-3]$/, 'must be one of: 1, 2, 3'],
  ['model_code', /^[0-9]{1,6}$/, 'must be 1 to 6 digits'],
  ['denatran_color', /^[0-9]{1,2}$/, 'must be 1 to 2 digits'],
  ['seating_capacity', /^[0-9]{1,3}$/, 'must be 1 to 3 digits'],
  ['restriction', /^[0-49]$/, 'must be one of: 0, 1, 2, 3, 4, 9'],
];

/** The veicProd model of an item: the free text in the layout's characters, the codes as given. */
export function veicProdOf(v: Vehicle): VeicProdModel {
  const out = {} as Record<keyof VeicProdModel, string>;
  for (const [xsd, field] of Object.entries(VEHICLE_FIELD) as Array<[keyof VeicProdModel, keyof Vehicle]>) out[xsd] = layoutText(v[field]);
  return out;
}

/** A note-wide fact some ICMS rules read: an item sells a new vehicle under direct billing (2) or direct sale (3). */
export const directVehicleSale = (items: ReadonlyArray<{ vehicle?: Vehicle | undefined }>) => items.some((it) => it.vehicle?.operation_type === '2' || it.vehicle?.operation_type === '3');

export function checkVehicle(errors: Errors, at: string, item: { vehicle?: Vehicle | undefined; medicine?: unknown; fuel?: unknown }): void {
  const v = item.vehicle;
  if (v === undefined || v === null || typeof v !== 'object') return;
  const p = `${at}.vehicle`;
  for (const [field, min, max] of TEXT_LIMITS) checkText(errors, `${p}.${field}`, v[field], min, max);
  for (const [field, pattern, what] of CODES) {
    const value: unknown = v[field];
    if (value === undefined) fail(errors, `${p}.${field}`, 'is required');
    else if (typeof value !== 'string' || !pattern.test(value)) fail(errors, `${p}.${field}`, what);
  }
  // The XSD's choice at the end of prod: veicProd, med, arma, comb or nRECOPI, one of them.
  if (item.medicine !== undefined || item.fuel !== undefined) {
    fail(errors, p, 'cannot go with medicine or fuel on the same item: the layout gives an item one of the vehicle (veicProd), medicine (med) or fuel (comb) groups');
  }
  // MOC C18-20 (478): direct billing (tpOp 2) needs the delivery place's UF (entrega/UF), a group the gateway does not write.
  if (v.operation_type === '2') {
    fail(errors, `${p}.operation_type`, 'cannot be 2 (direct billing): it needs the delivery place (entrega), which the gateway does not write yet (MOC C18-20, 478)', 'C18-20');
  }
}
