import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';
import type { DpsModel } from '../../src/fiscal/xml/nfse/model.js';

export const readNfseSample = (file: string) => readFileSync(join(PROJECT_ROOT, 'test/fixtures/samples/nfse', file), 'utf8');
export const RJ_NFSE_FILE = 'nfse_v1.01_RJ_producaorestrita_autorizada_assinada.xml';
export const RJ_DPS_FILE = 'dps_v1.01_RJ_producaorestrita_assinada_extraida_da_nfse.xml';

/** The data of the real restricted-production DPS (Rio de Janeiro, 30/12/2025), field by field. */
export const RJ_DPS_MODEL: DpsModel = {
  tpAmb: 2,
  dhEmi: '2025-12-30T19:00:06-03:00',
  verAplic: 'MXM.RTC-1.00',
  serie: '333',
  nDPS: '6',
  dCompet: '2025-12-30',
  tpEmit: 1,
  cLocEmi: '3304557',
  prest: { id: { CNPJ: '11905971000105' }, fone: '3132332300', email: 'sau@mxm.com.br', regTrib: { opSimpNac: 3, regApTribSN: 3, regEspTrib: 0 } },
  toma: {
    id: { CNPJ: '39847728000199' },
    xNome: 'MXM & JETTAX',
    end: { place: { endNac: { cMun: '3303302', CEP: '24020077' } }, xLgr: 'AV RIO BRANCO', nro: '123', xBairro: 'CENTRO' },
    fone: '2132332300',
    email: 'SAU@mxm.com.br',
  },
  serv: {
    locPrest: { cLocPrestacao: '3304557' },
    cTribNac: '010101',
    cTribMun: '001',
    xDescServ: 'Analise e desenvolvimento de sistemas (MXM)',
    cNBS: '115021000',
  },
  valores: {
    vServ: 1_000_000,
    tribMun: { tribISSQN: 1, tpRetISSQN: 1 },
    tribFed: {
      piscofins: { CST: '01', vBCPisCofins: 1_000_000, pAliqPis: 0, pAliqCofins: 760, vPis: 0, vCofins: 76_000, tpRetPisCofins: 2 },
      vRetIRRF: 15_000,
      vRetCSLL: 46_500,
    },
    totTrib: { vTotTrib: { vTotTribFed: 76_000, vTotTribEst: 0, vTotTribMun: 50_000 } },
  },
  IBSCBS: { finNFSe: 0, indFinal: 1, cIndOp: '100301', indDest: 0, CST: '000', cClassTrib: '000001' },
};
