import { Type, type Static } from 'typebox';
import type { CombModel } from '../../../fiscal/xml/nfe/model.js';
import { anpDescription } from '../../../fiscal/layout/anp-products.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import { formatRate, formatScaled, formatTrimmed, mulDivRound, toCents, toScaled } from '../../../kernel/decimal.js';

// items[].fuel: the request side of prod/comb (leiauteNFe_v4.00.xsd, MOC group LA), for NFC-e and NF-e alike.
// The checks are in validate-fuel.ts; the facts in docs/fiscal/fuel.md.

const percent = (description: string) =>
  Type.Optional(Type.Number({ description: `${description} Percent, 0-100, at most 4 decimals.`, examples: [60] }));

export const PumpReadingSchema = Type.Object(
  {
    nozzle: Type.String({ pattern: '^[0-9]{1,3}$', description: 'nBico: the nozzle number (1-3 digits).', examples: ['1'] }),
    pump: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: 'nBomba: the pump the nozzle belongs to (1-3 digits).', examples: ['2'] })),
    tank: Type.String({ pattern: '^[0-9]{1,3}$', description: 'nTanque: the tank that feeds the nozzle (1-3 digits).', examples: ['3'] }),
    start: Type.Number({ description: 'vEncIni: the totalizer (encerrante) at the start of the fill, at most 3 decimals.', examples: [123456.789] }),
    end: Type.Number({ description: 'vEncFin: the totalizer at the end of the fill; must be greater than start (MOC LA16-10, 380).', examples: [123496.789] }),
  },
  { additionalProperties: false, description: 'encerrante: the pump totalizer readings of this fill. NF-e: only with CFOP 5656 or 5667 (MOC LA11-20, 379).' },
);

export const FuelSchema = Type.Object(
  {
    anp_code: Type.String({ description: 'cProdANP: the 9-digit ANP (SIMP) product code (the authority refuses one not in the ANP table: MOC LA02-10, 761).', examples: ['320102001'] }),
    anp_description: Type.Optional(Type.String({ description: "descANP (2-95 characters); default the ANP table's description of the code.", examples: ['GASOLINA C COMUM'] })),
    glp_percent: percent('pGLP: share of GLP from petroleum. GLP (210203001) only; with GLP the three shares must add up to 100 (MOC LA03c-10/20).'),
    natural_gas_national_percent: percent('pGNn: share of GLGNn (national natural gas). GLP only.'),
    natural_gas_imported_percent: percent('pGNi: share of GLGNi (imported natural gas). GLP only.'),
    starting_value: Type.Optional(Type.Number({ description: 'vPart: the starting value (valor de partida) of GLP per kg, reais; required for GLP in an NF-e (MOC LA03d-10, 856).', examples: [6.5] })),
    codif: Type.Optional(Type.String({ pattern: '^[0-9]{1,21}$', description: 'CODIF: the authorization code of the state program that controls fuel (1-21 digits), where the state has one.' })),
    temperature_quantity: Type.Optional(Type.Number({ description: 'qTemp: the quantity billed at ambient temperature, > 0, at most 4 decimals.', examples: [40] })),
    uf_cons: Type.String({ description: 'UFCons: the state where the fuel is consumed (two letters, EX abroad).', examples: ['SP'] }),
    cide: Type.Optional(
      Type.Object(
        {
          base_quantity: Type.Number({ description: 'qBCProd: the CIDE base in the unit the rate is set for, at most 4 decimals.', examples: [40] }),
          rate_per_unit: Type.Number({ description: 'vAliqProd: the CIDE in reais per unit, at most 4 decimals.', examples: [0.1] }),
          amount: Type.Optional(Type.Number({ description: 'vCIDE: default base_quantity x rate_per_unit rounded to cents; one sent must equal it.', examples: [4] })),
        },
        { additionalProperties: false, description: 'CIDE-Combustíveis (Lei 10.336/2001) charged on this item, where due.' },
      ),
    ),
    pump_reading: Type.Optional(PumpReadingSchema),
    biodiesel_percent: Type.Optional(Type.Number({ description: 'pBio: the biodiesel share of the blend (diesel B), > 0 and <= 100, at most 4 decimals.', examples: [14] })),
  },
  { additionalProperties: false, description: 'prod/comb: the fuel group of an item sold by a gas station or distributor (docs/fiscal/fuel.md).' },
);

export type FuelInput = Static<typeof FuelSchema>;

const fixed = (v: number, scale: number) => formatScaled(toScaled(v, scale), scale);

/** vCIDE: qBCProd x vAliqProd (both scale 4) rounded half up to cents. */
export function cideAmountCents(baseQuantity: number, ratePerUnit: number): number {
  return Number(mulDivRound(toScaled(baseQuantity, 4), toScaled(ratePerUnit, 4), 1_000_000n));
}

/** The comb group of a validated fuel item. */
export function combOf(f: FuelInput): CombModel {
  const c: CombModel = {
    cProdANP: f.anp_code,
    descANP: f.anp_description !== undefined ? layoutText(f.anp_description) : (anpDescription(f.anp_code) ?? ''),
    UFCons: f.uf_cons,
  };
  if (f.glp_percent !== undefined) c.pGLP = formatRate(Number(toScaled(f.glp_percent, 4)));
  if (f.natural_gas_national_percent !== undefined) c.pGNn = formatRate(Number(toScaled(f.natural_gas_national_percent, 4)));
  if (f.natural_gas_imported_percent !== undefined) c.pGNi = formatRate(Number(toScaled(f.natural_gas_imported_percent, 4)));
  if (f.starting_value !== undefined) c.vPart = toCents(f.starting_value);
  if (f.codif !== undefined) c.CODIF = f.codif;
  if (f.temperature_quantity !== undefined) c.qTemp = fixed(f.temperature_quantity, 4);
  if (f.cide) {
    c.CIDE = {
      qBCProd: fixed(f.cide.base_quantity, 4),
      vAliqProd: fixed(f.cide.rate_per_unit, 4),
      vCIDE: f.cide.amount !== undefined ? toCents(f.cide.amount) : cideAmountCents(f.cide.base_quantity, f.cide.rate_per_unit),
    };
  }
  const p = f.pump_reading;
  if (p) {
    c.encerrante = { nBico: p.nozzle, nTanque: p.tank, vEncIni: fixed(p.start, 3), vEncFin: fixed(p.end, 3) };
    if (p.pump !== undefined) c.encerrante.nBomba = p.pump;
  }
  if (f.biodiesel_percent !== undefined) c.pBio = formatTrimmed(toScaled(f.biodiesel_percent, 4), 4, 0);
  return c;
}
