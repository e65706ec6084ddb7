// Which QR code layout to emit for a state, environment and date.
// Sources: NT 2025.001 "QR-Code v3" (published 25/03/2025): v3 accepted in homologation from 02/06/2025
// and in production from 01/09/2025; v2 stays valid with no end date (docs/fiscal/qrcode.md#version-3). The per-state choice
// after those dates is the published table in wsnfe_4.00_mod65.xml (sped-nfe: homologation 300,
// production 200), carried in sefaz_endpoints_v4_derived.json and read by nfceUrls.
import { nfceUrls, type TpAmb, type Uf } from './nfce-urls.js';

export const QR_V3_ACCEPTED_FROM: Record<TpAmb, Date> = {
  1: new Date('2025-09-01T00:00:00-03:00'),
  2: new Date('2025-06-02T00:00:00-03:00'),
};

export function qrVersionFor(uf: Uf | string, tpAmb: TpAmb, date: Date): 2 | 3 {
  const published = nfceUrls(uf, tpAmb).qrVersion;
  if (published === 3 && date.getTime() < QR_V3_ACCEPTED_FROM[tpAmb].getTime()) return 2;
  return published;
}
