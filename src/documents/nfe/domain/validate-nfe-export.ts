import { checkText, fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { ufCode } from '../../../fiscal/layout/ibge.js';
import type { NfeRequest } from './nfe-request.js';

// The export group (MOC group ZA, exporta), docs/fiscal/exports-and-delivery.md: required in an
// outbound NF-e to a recipient abroad, refused in any other.

/** idDest and tpNF as checkNfe derived them (idDest undefined while the recipient is invalid). */
export function checkExport(errors: Errors, req: NfeRequest, idDest: 1 | 2 | 3 | undefined, tpNF: 0 | 1): void {
  const e = req.export;
  if (idDest === undefined) return;
  if (!e) {
    // MOC ZA01-10 (355): tpNF=1 and idDest=3 without exporta.
    if (tpNF === 1 && idDest === 3) {
      fail(errors, 'export', 'is required in an export (outbound NF-e to a recipient abroad): give shipment_uf and shipment_place, where the goods leave the country (MOC ZA01-10, 355)', 'ZA01-10');
    }
    return;
  }
  // MOC ZA01-20 (356): exporta with tpNF=0 or idDest<>3.
  if (tpNF === 0 || idDest !== 3) {
    fail(errors, 'export', `is only given in an export (outbound NF-e to a recipient abroad); this one is ${tpNF === 0 ? 'inbound' : idDest === 1 ? 'internal' : 'interstate'} (MOC ZA01-20, 356)`, 'ZA01-20');
    return;
  }
  // MOC ZA02: a Brazilian state, "EX" not accepted (XSD TUfEmi).
  if (typeof e.shipment_uf !== 'string' || !ufCode(e.shipment_uf)) fail(errors, 'export.shipment_uf', 'must be the two-letter Brazilian state where the goods are shipped or cross the border (EX is not accepted, MOC ZA02)');
  checkText(errors, 'export.shipment_place', e.shipment_place, 1, 60);
  checkText(errors, 'export.dispatch_place', e.dispatch_place, 1, 60, false);
}
