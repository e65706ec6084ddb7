import { describe, expect, it } from 'vitest';
import { nfseIbsCbsRatesOn } from './ibscbs-rates.js';
import { nfseIbsCbsBase, nfseIbsCbsValues, type NfseIbsCbsBaseParts } from './ibscbs-values.js';

// Figures computed by hand from the XSD's formulas (TCRTCValoresIBSCBS, TCRTCTotalCIBS) and LC 214/2025
// arts. 343, 344, 346 (docs/fiscal/nfse-reform.md), and the real NFS-e Sefin issued in restricted production.

const service = (o: Partial<NfseIbsCbsBaseParts> = {}): NfseIbsCbsBaseParts => ({
  dCompet: '2026-03-10', vServ: 100_000, vDescIncond: 0, vCalcReeRepRes: 0, vISSQN: 0, vPis: 0, vCofins: 0, ...o,
});

describe('national NFS-e IBS/CBS values', () => {
  it('R$ 1,000.00 in 2026 with ISSQN 5 %, PIS 0.65 %, COFINS 3 %: vBC 913.50, IBS UF 0.91, CBS 8.22, vTotNF = vLiq', () => {
    // vBC = 1000.00 - 50.00 (ISSQN) - 6.50 (PIS) - 30.00 (COFINS) = 913.50 (XSD vBC, "até 2026").
    // vIBSUF = 913.50 x 0.10 % = 0.9135 -> 0.91; vIBSMun = 913.50 x 0 % = 0; vCBS = 913.50 x 0.90 % = 8.2215 -> 8.22.
    const parts = service({ vISSQN: 5_000, vPis: 650, vCofins: 3_000 });
    const v = nfseIbsCbsValues(parts, nfseIbsCbsRatesOn(parts.dCompet)!, 100_000);
    expect(v).toMatchObject({ vBC: 91_350, vCalcReeRepRes: 0, vIBSUF: 91, vIBSMun: 0, vIBSTot: 91, vCBS: 822, vTotNF: 100_000 });
    expect(v.uf).toEqual({ rate: 10, effective: 10 });
    expect(v.mun).toEqual({ rate: 0, effective: 0 });
    expect(v.fed).toEqual({ rate: 90, effective: 90 });
  });

  it('reproduces the NFS-e Sefin issued (RJ, restricted production): vServ 10,000.00, ISSQN 500.00, COFINS 760.00 -> vBC 8,740.00', () => {
    // test/fixtures/samples/nfse/nfse_v1.01_RJ_...: vBC 8740.00, vIBSUF 8.74, vIBSMun 0.00, vCBS 78.66, vTotNF 9385.00 (= vLiq).
    const parts = service({ dCompet: '2025-12-30', vServ: 1_000_000, vISSQN: 50_000, vCofins: 76_000 });
    const v = nfseIbsCbsValues(parts, { ibsUf: 10, ibsMun: 0, cbs: 90 }, 938_500);
    expect(v).toMatchObject({ vBC: 874_000, vIBSUF: 874, vIBSMun: 0, vIBSTot: 874, vCBS: 7_866, vTotNF: 938_500 });
  });

  it('a reduced rate (cClassTrib with pRedIBS = pRedCBS = 60 %): effective rates 0.04 and 0.36', () => {
    // XSD pAliqEfetUF = pIBSUF x (1 - pRedAliqUF): 0.10 x 0.40 = 0.04; pAliqEfetCBS = 0.90 x 0.40 = 0.36.
    // vIBSUF = 1000.00 x 0.04 % = 0.40; vCBS = 1000.00 x 0.36 % = 3.60.
    const v = nfseIbsCbsValues(service(), { ibsUf: 10, ibsMun: 0, cbs: 90 }, 100_000, { ibs: 6_000, cbs: 6_000 });
    expect(v.uf).toEqual({ rate: 10, reduction: 6_000, effective: 4 });
    expect(v.fed).toEqual({ rate: 90, reduction: 6_000, effective: 36 });
    expect(v).toMatchObject({ vIBSUF: 40, vCBS: 360 });
  });

  it('from 2027 PIS and COFINS leave the base (XSD vBC "até 2032": only ISSQN) and the taxes add to vTotNF', () => {
    // vBC = 1000.00 - 20.00 (ISSQN 2 %) = 980.00; the 6.50 of PIS and 30.00 of COFINS no longer count.
    expect(nfseIbsCbsBase(service({ dCompet: '2027-01-04', vISSQN: 2_000, vPis: 650, vCofins: 3_000 }))).toBe(98_000);
    // IBS 0.05 % + 0.05 % (LC 214/2025 art. 344): 980.00 x 0.05 % = 0.49 each; with the CBS rate at 0 in this
    // arithmetic check, vTotNF = vLiq 980.00 + 0.98 (XSD vTotNF "a partir de 2027").
    const v = nfseIbsCbsValues(service({ dCompet: '2027-01-04', vISSQN: 2_000 }), { ibsUf: 5, ibsMun: 5, cbs: 0 }, 98_000);
    expect(v).toMatchObject({ vBC: 98_000, vIBSUF: 49, vIBSMun: 49, vIBSTot: 98, vTotNF: 98_098 });
  });

  it('knows the 2026 rates and no CBS rate for 2027 yet; the base never goes below zero', () => {
    expect(nfseIbsCbsRatesOn('2026-12-31')).toEqual({ ibsUf: 10, ibsMun: 0, cbs: 90 });
    expect(nfseIbsCbsRatesOn('2027-01-01')).toBeUndefined();
    expect(nfseIbsCbsBase(service({ vDescIncond: 100_000, vISSQN: 1 }))).toBe(0);
  });
});
