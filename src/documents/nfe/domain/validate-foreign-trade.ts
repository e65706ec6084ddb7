import { checkText, fail, type Errors } from '../../../fiscal/layout/field-rules.js';

// Per-item rules of the MOC rule table for new vehicles (veicProd), the import declaration (DI)
// with the import tax (II), and the export detail (detExport), NF-e model 55 only.
// Facts and sources: docs/fiscal/vehicles-and-foreign-trade.md. The export detail is in the NF-e request
// (items[].export_detail, checked by validate-nfe-item.ts); the vehicle and import groups are not yet.

/** The item facts these rules read, in the request's words. */
export interface ForeignTradeItem {
  cfop: string;
  vehicle?: { chassis?: string } | undefined;
  import_declaration?: { number?: string; additions?: { drawback?: string | undefined }[] } | undefined;
  import_tax?: { base: number; customs_expenses: number; value: number; iof: number } | undefined;
  export_detail?: { drawback?: string | undefined; indirect?: { re_number?: string | undefined; access_key: string; quantity: number } | undefined } | undefined;
}

// MOC I08-110 (525) and I08-130 (599) list the CFOPs the DI / II requirement does not cover.
const NO_DI_CFOPS = new Set(['3201', '3202', '3503', '3553']);
const NO_II_CFOPS = new Set(['3201', '3202', '3211', '3503', '3553']);

export function checkForeignTradeItem(errors: Errors, path: string, it: ForeignTradeItem, ctx: { model: 55 | 65; idDest: 1 | 2 | 3 }): void {
  // MOC J01-10 (736): an NFC-e never carries veicProd.
  if (it.vehicle && ctx.model === 65) fail(errors, `${path}.vehicle`, 'is only given in an NF-e (model 55), never in an NFC-e (MOC J01-10, 736)', 'J01-10');
  const importCfop = it.cfop.startsWith('3');
  // MOC I08-110 (525): CFOP 3xxx without DI, outside the excepted CFOPs.
  if (importCfop && !it.import_declaration && !NO_DI_CFOPS.has(it.cfop)) {
    fail(errors, `${path}.import_declaration`, `is required with an import CFOP (${it.cfop}) (MOC I08-110, 525)`, 'I08-110');
  }
  // MOC I08-130 (599): CFOP 3xxx without the II group, outside the excepted CFOPs.
  if (importCfop && !it.import_tax && !NO_II_CFOPS.has(it.cfop)) {
    fail(errors, `${path}.import_tax`, `is required with an import CFOP (${it.cfop}) (MOC I08-130, 599)`, 'I08-130');
  }
  // MOC I29a-10 (334): drawback number in the addition for CFOP 3127 and 3211.
  if ((it.cfop === '3127' || it.cfop === '3211') && it.import_declaration) {
    (it.import_declaration.additions ?? []).forEach((a, i) => {
      if (!a.drawback) fail(errors, `${path}.import_declaration.additions[${i}].drawback`, `is required with CFOP ${it.cfop} (MOC I29a-10, 334)`, 'I29a-10');
    });
  }
  checkExportDetail(errors, path, it.cfop, it.export_detail, ctx.idDest);
}

/** prod/detExport of an item: MOC I50-10 (336), I51-10 (338) and the nRE pattern of the XSD (I53-10, 341). */
export function checkExportDetail(errors: Errors, path: string, cfop: string, ex: ForeignTradeItem['export_detail'], idDest: 1 | 2 | 3 | undefined): void {
  if (ex) {
    // MOC I50-10 (336): detExport only in an operation abroad (idDest 3).
    if (idDest !== undefined && idDest !== 3) fail(errors, `${path}.export_detail`, 'is only given in an operation with a party abroad (idDest 3) (MOC I50-10, 336)', 'I50-10');
    // MOC I53-10 (341) with the XSD pattern [0-9]{0,12} for nRE.
    const nre = ex.indirect?.re_number;
    if (nre !== undefined && !/^[0-9]{0,12}$/.test(nre)) fail(errors, `${path}.export_detail.indirect.re_number`, 'must be up to 12 digits (MOC I53-10, 341)', 'I53-10');
    if (ex.drawback !== undefined) checkText(errors, `${path}.export_detail.drawback`, ex.drawback, 1, 20);
  }
  // MOC I51-10 (338): drawback number for CFOP 7127 and 7211.
  if ((cfop === '7127' || cfop === '7211') && !ex?.drawback) {
    fail(errors, `${path}.export_detail.drawback`, `is required with CFOP ${cfop} (MOC I51-10, 338)`, 'I51-10');
  }
}

/** ICMSTot/vII: sum of the items' II/vII in cents (MOC W11-10, 601). */
export function totalII(items: ForeignTradeItem[]): number {
  return items.reduce((s, it) => s + Math.round((it.import_tax?.value ?? 0) * 100), 0) / 100;
}
