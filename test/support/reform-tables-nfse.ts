import type { ClassEntry, ClassIndicators, CstEntry, CstIndicators, ReformTables } from '../../src/fiscal/reform/reform-tables.js';

// A few rows of the official reform tables, for the NFS-e tests (docs/fiscal/nfse-reform.md). cClassTrib rows
// as the official table gives them (mirrored by github.com/claudiostocco/reformatributaria scripts/UpdClasTrib.sql:
// code, pRedIBS, pRedCBS, tipo de alíquota, documents); rates of LC 214/2025 arts. 343, 344, 346.

const noCst: CstIndicators = { ind_gIBSCBS: false, ind_gIBSCBSMono: false, ind_gRed: false, ind_gDif: false, ind_gTransfCred: false, ind_gCredPresIBSZFM: false, ind_gAjusteCompet: false, ind_RedutorBC: false };
const noClass: ClassIndicators = { ind_gTribRegular: false, ind_gCredPresOper: false, ind_gMonoPadrao: false, ind_gMonoReten: false, ind_gMonoRet: false, ind_gMonoDif: false, ind_gpBioDiferenca: false, ind_gEstornoCred: false };

const cst = (code: string, indicators: Partial<CstIndicators>): CstEntry => ({ cst: code, description: code, indicators: { ...noCst, ...indicators }, documents: ['nfe', 'nfce', 'nfse'] });
const cls = (code: string, pRed: number, rateType: ClassEntry['rateType'], documents: ClassEntry['documents'], name: string): ClassEntry => ({
  code, cst: code.slice(0, 3), name, description: name, pRedIBS: pRed, pRedCBS: pRed, rateType, indicators: noClass, documents, validFrom: '2026-01-01', legalReference: 'LC 214/2025',
});

export const NFSE_REFORM_TABLES: ReformTables = {
  revision: 'test rows',
  csts: [cst('000', { ind_gIBSCBS: true }), cst('200', { ind_gIBSCBS: true, ind_gRed: true }), cst('410', {}), cst('515', { ind_gIBSCBS: true, ind_gRed: true, ind_gDif: true })],
  classes: [
    cls('000001', 0, 'Padrão', ['nfe', 'nfce', 'nfse'], 'Situações tributadas integralmente pelo IBS e CBS'),
    cls('200003', 100, 'Padrão', ['nfe', 'nfce'], 'Alimentos do Anexo I (not for the NFS-e)'),
    cls('200028', 60, 'Padrão', ['nfse'], 'Serviços de educação do Anexo II'),
    cls('200052', 30, 'Padrão', ['nfse'], 'Profissões intelectuais regulamentadas'),
    cls('410004', 0, 'Sem alíquota', ['nfe', 'nfse'], 'Exportações de bens e serviços, art. 8º'),
    cls('515001', 60, 'Padrão', ['nfe', 'nfse'], 'Operações, sujeitas a diferimento, com insumos agropecuários e aquícolas (Anexo IX)'),
  ],
  rates: [
    { from: '2026-01-01', until: '2027-01-01', ibsState: 0.1, ibsMunicipal: 0, cbs: 0.9, simplesGroupsDue: false, source: 'LC 214/2025 arts. 343, 346' },
    { from: '2027-01-01', until: '2029-01-01', ibsState: 0.05, ibsMunicipal: 0.05, cbs: null, simplesGroupsDue: true, source: 'LC 214/2025 art. 344' },
  ],
};
