import { GOODS_BREAKERS, type GoodsBreaker } from './goods-breakers.js';
import { NFSE_BREAKERS, type NfseBreaker } from './nfse-breakers.js';
import { IDE_BREAKERS } from './breakers-ide.js';
import { EPEC_BREAKERS } from './breakers-epec.js';
import { PARTIES_BREAKERS } from './breakers-parties.js';
import { ITEMS_BREAKERS } from './breakers-items.js';
import { VEHICLES_BREAKERS } from './breakers-vehicles.js';
import { ICMS_BREAKERS } from './breakers-icms.js';
import { TOTALS_BREAKERS } from './breakers-totals.js';
import { QR_RECORDS_BREAKERS } from './breakers-qr-records.js';
import { NFSE_DPS_BREAKERS, NFSE_SERVICE_BREAKERS } from './breakers-nfse-dps.js';
import { NFSE_VALUES_BREAKERS } from './breakers-nfse-values.js';
import { NFSE_IBSCBS_BREAKERS } from './breakers-nfse-ibscbs.js';

// Every breaker table of the fiscal-truth property: the first tables and the families' own
// (breakers-<family>.ts, one per registry authority-sim/enforced-<family>.ts).
export const ALL_GOODS_BREAKERS: readonly GoodsBreaker[] = [
  ...GOODS_BREAKERS, ...IDE_BREAKERS, ...PARTIES_BREAKERS, ...ITEMS_BREAKERS, ...VEHICLES_BREAKERS, ...ICMS_BREAKERS, ...TOTALS_BREAKERS, ...QR_RECORDS_BREAKERS, ...EPEC_BREAKERS,
];
export const ALL_NFSE_BREAKERS: readonly NfseBreaker[] = [...NFSE_BREAKERS, ...NFSE_DPS_BREAKERS, ...NFSE_SERVICE_BREAKERS, ...NFSE_VALUES_BREAKERS, ...NFSE_IBSCBS_BREAKERS];
