import { Type, type Static } from 'typebox';
import { toScaled } from '../../../kernel/decimal.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import type { DetExportModel } from '../../../fiscal/xml/nfe/model.js';

// items[].export_detail of an NF-e: prod/detExport of leiauteNFe_v4.00.xsd, one per item (the layout
// allows up to 500; one covers a drawback act and an indirect export of the item). The rules it meets:
// MOC I50-10 (only with a party abroad), I51-10 (the drawback act with CFOP 7127 and 7211), the XSD's
// types; docs/fiscal/vehicles-and-foreign-trade.md.

export const ExportDetailSchema = Type.Object(
  {
    drawback: Type.Optional(
      Type.String({ minLength: 1, maxLength: 20, description: 'nDraw: the drawback concession act (ato concessório), 1-20 characters; required with CFOP 7127 and 7211 (MOC I51-10, 338).', examples: ['20230001234'] }),
    ),
    indirect: Type.Optional(
      Type.Object(
        {
          re_number: Type.String({ pattern: '^[0-9]{0,12}$', description: 'nRE: the export registration (registro de exportação), up to 12 digits.', examples: ['123456789012'] }),
          access_key: Type.String({ pattern: '^[0-9]{44}$', description: 'chNFe: the 44-digit access key of the NF-e received for export (the goods bought with the end of export).', examples: ['35260611222333000181550010000000011000000015'] }),
          quantity: Type.Number({ minimum: 0, maximum: 99999999999.9999, description: 'qExport: the quantity of the item actually exported, up to 4 decimals.', examples: [10] }),
        },
        { additionalProperties: false, description: 'exportInd: an indirect export (goods received from a trading company or exporter with the end of export).' },
      ),
    ),
  },
  { additionalProperties: false, description: 'detExport: the export detail of an item in a sale abroad (idDest 3): the drawback act and the indirect export (MOC I50-I54).' },
);

export type ExportDetail = Static<typeof ExportDetailSchema>;

/** The detExport model of an item, quantities as 4-decimal units. */
export function detExportOf(d: ExportDetail): DetExportModel {
  const out: DetExportModel = {};
  if (d.drawback !== undefined) out.nDraw = layoutText(d.drawback);
  if (d.indirect) out.exportInd = { nRE: d.indirect.re_number, chNFe: d.indirect.access_key, qExport: toScaled(d.indirect.quantity, 4) };
  return out;
}
