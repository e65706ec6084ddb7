import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import type { NfeRequest } from './nfe-request.js';

/**
 * MOC X02-20 (868, NT 2016.002): an interstate operation (idDest 2) carries neither the vehicle
 * (veicTransp) nor trailers (reboque). The same for internal operations between municipalities is the
 * state's choice (Obs. 1): not refused here.
 */
export function checkTransportScope(errors: Errors, req: NfeRequest, idDest: 1 | 2 | 3 | undefined): void {
  if (idDest === 2 && req.transporte?.veiculo) {
    fail(errors, 'transporte.veiculo', 'is not given in an interstate operation (recipient in another state): leave the vehicle out (MOC X02-20, 868)', 'X02-20');
  }
}
