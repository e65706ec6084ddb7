import { checkText, fail, type Errors } from '../../../fiscal/layout/field-rules.js';

// Per-item rules of the MOC rule table for the import declaration (DI) with the import tax (II) and the
// export detail (detExport), NF-e model 55 only, read from the request's items[].import_declarations,
// import_tax and export_detail (called by validate-nfe-item.ts). The vehicle rules are in vehicle.ts.
// Facts and sources: docs/fiscal/vehicles-and-foreign-trade.md.

/** items[].export_detail as the request gives it (prod/detExport). */
export interface ExportDetail {
  drawback?: string | undefined;
  indirect?: { re_number?: string | undefined; access_key: string; quantity: number } | undefined;
}

/** The request field of prod/DI (a list of declarations, 1-100). */
const IMPORT_DECLARATIONS = 'import_declarations';

// MOC I08-110 (525) and I08-130 (599) list the CFOPs the DI / II requirement does not cover.
const NO_DI_CFOPS = new Set(['3201', '3202', '3503', '3553']);
const NO_II_CFOPS = new Set(['3201', '3202', '3211', '3503', '3553']);

/** MOC I08-110 (525) and I08-130 (599): an import CFOP (3xxx) without DI or II, outside the excepted CFOPs. */
function checkImportCfop(errors: Errors, path: string, cfop: string, hasDi: boolean, hasIi: boolean): void {
  if (!cfop.startsWith('3')) return;
  if (!hasDi && !NO_DI_CFOPS.has(cfop)) fail(errors, `${path}.${IMPORT_DECLARATIONS}`, `is required with an import CFOP (${cfop}) (MOC I08-110, 525)`, 'I08-110');
  if (!hasIi && !NO_II_CFOPS.has(cfop)) fail(errors, `${path}.import_tax`, `is required with an import CFOP (${cfop}) (MOC I08-130, 599)`, 'I08-130');
}

/** prod/detExport of an item: MOC I50-10 (336), I51-10 (338) and the nRE pattern of the XSD (I53-10, 341). */
export function checkExportDetail(errors: Errors, path: string, cfop: string, ex: ExportDetail | undefined, idDest: 1 | 2 | 3 | undefined): void {
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

/** The import groups of an NF-e item as the request gives them (items[].import_declarations, items[].import_tax). */
export interface ImportItem {
  cfop: string;
  import_declarations?: readonly { transport_mode?: string; afrmm?: number | undefined; intermediation?: string; buyer_cnpj?: string | undefined; buyer_cpf?: string | undefined; third_party_uf?: string | undefined; additions?: readonly { drawback?: string | undefined }[] }[] | undefined;
  import_tax?: { base: number; customs_expenses: number; value: number; iof: number } | undefined;
}

/**
 * prod/DI and imposto/II of an NF-e item: MOC I08-110 (525), I08-130 (599), I23b-10 (330), I23d-10 (331),
 * I23d-20 (332), I23e-10 (333), I29a-10 (334); the layout's types are the request schema's.
 */
export function checkImportItem(errors: Errors, path: string, it: ImportItem, validCnpj: (cnpj: string) => boolean): void {
  const dis = it.import_declarations;
  checkImportCfop(errors, path, it.cfop, (dis ?? []).length > 0, it.import_tax !== undefined);
  (dis ?? []).forEach((di, k) => {
    const at = `${path}.import_declarations[${k}]`;
    // MOC I23b-10 (330): by sea (tpViaTransp 1) the AFRMM is required.
    if (di.transport_mode === '1' && di.afrmm === undefined) fail(errors, `${at}.afrmm`, 'is required by sea (transport_mode 1) (MOC I23b-10, 330)', 'I23b-10');
    if (di.buyer_cnpj !== undefined && di.buyer_cpf !== undefined) fail(errors, `${at}.buyer_cpf`, 'give only one of buyer_cnpj or buyer_cpf');
    // MOC I23d-20 (332): the buyer's CNPJ with valid check digits.
    if (di.buyer_cnpj !== undefined && !validCnpj(di.buyer_cnpj)) fail(errors, `${at}.buyer_cnpj`, 'is not a valid CNPJ (check digits must match; MOC I23d-20, 332)', 'I23d-20');
    const onBehalf = di.intermediation === '2' || di.intermediation === '3';
    // MOC I23d-10 (331): an import on behalf of (2) or to the order of (3) a buyer names the buyer.
    if (onBehalf && di.buyer_cnpj === undefined && di.buyer_cpf === undefined) {
      fail(errors, `${at}.buyer_cnpj`, `is required with intermediation ${di.intermediation} (on behalf of or to the order of a buyer): give buyer_cnpj or buyer_cpf (MOC I23d-10, 331)`, 'I23d-10');
    }
    // MOC I23e-10 (333): and the buyer's state.
    if (onBehalf && di.third_party_uf === undefined) fail(errors, `${at}.third_party_uf`, `is required with intermediation ${di.intermediation} (MOC I23e-10, 333)`, 'I23e-10');
    // MOC I29a-10 (334): every addition carries the drawback act with CFOP 3127 and 3211.
    if (it.cfop === '3127' || it.cfop === '3211') {
      (di.additions ?? []).forEach((a, i) => {
        if (!a.drawback) fail(errors, `${at}.additions[${i}].drawback`, `is required with CFOP ${it.cfop} (MOC I29a-10, 334)`, 'I29a-10');
      });
    }
  });
}

/** `day` (YYYY-MM-DD) moved by whole years, then days, in UTC. */
function shiftDay(day: string, years: number, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * MOC I23-10 (376): the clearance date (dDesemb) in the future or more than 5 years back. `day` is the UTC
 * date the note is prepared on; the earliest date anywhere in Brazil is the day before it, so 5 years and
 * one day back is the bound that is never stricter than the authority (the simulator reads the same).
 */
export function checkClearanceDates(errors: Errors, items: readonly { import_declarations?: readonly { cleared_on?: unknown }[] | undefined }[], day: string | undefined): void {
  if (day === undefined) return;
  const earliest = shiftDay(day, -5, -1);
  items.forEach((item, i) => {
    if (!Array.isArray(item?.import_declarations)) return;
    item.import_declarations.forEach((di, k) => {
      const on = di?.cleared_on;
      if (typeof on !== 'string' || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(on)) return;
      if (on > day || on < earliest) {
        fail(errors, `items[${i}].import_declarations[${k}].cleared_on`, `must be between ${earliest} and ${day}: not in the future nor more than 5 years back (MOC I23-10, 376)`, 'I23-10');
      }
    });
  });
}
