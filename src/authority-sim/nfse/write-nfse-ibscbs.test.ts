import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { nfseProvider } from '../../../test/support/nfse-sim-calls.js';
import { NFSE_REFORM_TABLES } from '../../../test/support/reform-tables-nfse.js';
import { RJ_DPS_FILE, RJ_NFSE_FILE, readNfseSample } from '../../../test/support/nfse-samples.js';
import { xmllint } from '../../../test/support/xml-tools.js';
import { checkDpsIbsCbs } from './dps-ibscbs-rules.js';
import { dpsFacts, type DpsFacts } from './dps-facts.js';
import { nfseValues } from './nfse-values.js';
import type { NfseRefusal } from './nfse-wire.js';
import { writeNfse } from './write-nfse.js';
import { placeOfIncidence, writeNfseIbsCbs } from './write-nfse-ibscbs.js';

// infNFSe/IBSCBS as Sefin writes it (docs/fiscal/nfse-reform.md): checked against the real NFS-e Sefin issued
// in restricted production for the DPS test/fixtures/samples/nfse/dps_v1.01_RJ_... (Rio de Janeiro, taker in
// Niterói, cIndOp 100301, CST 000, vServ 10,000.00, COFINS due 760.00).

const dpsText = readNfseSample(RJ_DPS_FILE).replace(/^<\?xml[^>]*\?>/, '');

/** The sample's facts, with the 5 % rate Sefin took from Rio's register (its NFS-e: pAliqAplic 5.00) and a 2026 competence. */
function sampleFacts(edit: (f: DpsFacts) => void = () => {}): DpsFacts {
  const f = dpsFacts(new DOMParser().parseFromString(dpsText, 'text/xml').documentElement as never);
  f.values.pAliq = 500;
  // The sample is dated 2025-12-30 (restricted production applied the 2026 rates); the simulator knows rates by year.
  f.dCompet = '2026-01-05';
  edit(f);
  return f;
}

describe('the NFS-e IBS/CBS group the simulator writes', () => {
  it('is the group of the real NFS-e, byte for byte: vBC 10,000.00 - 500.00 ISSQN - 760.00 COFINS = 8,740.00', () => {
    const f = sampleFacts();
    const real = /<IBSCBS><cLocalidadeIncid>.*?<\/IBSCBS>/.exec(readNfseSample(RJ_NFSE_FILE))![0];
    // 8740.00 x 0.10 % = 8.74 (IBS UF); x 0 % = 0.00 (Mun); x 0.90 % = 78.66 (CBS); vTotNF = vLiq 9,385.00 (2026).
    expect(writeNfseIbsCbs(f, nfseValues(f.values), undefined)).toBe(real);
    expect(writeNfseIbsCbs(f, nfseValues(f.values), NFSE_REFORM_TABLES)).toBe(real);
  });

  it('places the operation as Anexo C says: 100301 at the taker, 030101 at the provider, 020201 where provided', () => {
    expect(placeOfIncidence(sampleFacts())).toBe('3303302');
    expect(placeOfIncidence(sampleFacts((f) => (f.ibsCbs!.cIndOp = '030101')))).toBe('3304557');
    expect(placeOfIncidence(sampleFacts((f) => ((f.ibsCbs!.cIndOp = '020201'), (f.cLocPrestacao = '3550308'))))).toBe('3550308');
    expect(placeOfIncidence(sampleFacts((f) => ((f.ibsCbs!.cIndOp = '100401'), (f.ibsCbs!.indDest = '1'), (f.ibsCbs!.destMun = '3106200'))))).toBe('3106200');
  });

  it('writes no group where it cannot compute it: no rates known for the year, or a CST other than 000', () => {
    const v = (f: DpsFacts) => nfseValues(f.values);
    expect(writeNfseIbsCbs(sampleFacts((f) => (f.dCompet = '2027-01-04')), v(sampleFacts()), undefined)).toBe('');
    expect(writeNfseIbsCbs(sampleFacts((f) => (f.ibsCbs!.CST = '200')), v(sampleFacts()), undefined)).toBe('');
    expect(writeNfseIbsCbs(sampleFacts((f) => (f.dCompet = '2027-01-04')), v(sampleFacts()), NFSE_REFORM_TABLES)).toBe('');
  });

  it('puts it after valores in an NFS-e the national XSD accepts (xmllint)', async () => {
    const nfse = writeNfse(
      { key: '33045572211905971000105000000000000126011234567890', nNFSe: 1, nDFSe: 1, processedAt: new Date('2026-01-05T12:00:00Z'), providerName: 'MXM', facts: sampleFacts(), dpsText },
      nfseProvider('11222333000181').signingKey,
    );
    expect(nfse).toMatch(/<\/valores><IBSCBS><cLocalidadeIncid>3303302<\/cLocalidadeIncid>.*<vIBSUF>8\.74<\/vIBSUF>.*<\/IBSCBS><DPS/);
    expect(await xmllint(nfse, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
  });
});

describe('with the reform tables: the class decides the reductions (written) and E0958 / E0964 / E0971 / E0972 (played)', () => {
  it('education (200028, 60 %): pRedAliqUF/Mun/CBS 60.00 written, effective 0.04 / 0.00 / 0.36 on vBC 8,740.00', () => {
    const f = sampleFacts((x) => ((x.ibsCbs!.CST = '200'), (x.ibsCbs!.cClassTrib = '200028')));
    const xml = writeNfseIbsCbs(f, nfseValues(f.values), NFSE_REFORM_TABLES);
    // 8740.00 x 0.04 % = 3.496 -> 3.50; 8740.00 x 0.36 % = 31.464 -> 31.46.
    expect(xml).toContain('<uf><pIBSUF>0.10</pIBSUF><pRedAliqUF>60.00</pRedAliqUF><pAliqEfetUF>0.04</pAliqEfetUF></uf>');
    expect(xml).toContain('<fed><pCBS>0.90</pCBS><pRedAliqCBS>60.00</pRedAliqCBS><pAliqEfetCBS>0.36</pAliqEfetCBS></fed>');
    expect(xml).toContain('<vIBSTot>3.50</vIBSTot><gIBSUFTot><vIBSUF>3.50</vIBSUF></gIBSUFTot>');
    expect(xml).toContain('<gCBS><vCBS>31.46</vCBS></gCBS>');
  });

  const dps = (edit: (xml: string) => string) => new DOMParser().parseFromString(edit(dpsText.replace('<dCompet>2025-12-30</dCompet>', '<dCompet>2026-01-05</dCompet>')), 'text/xml').documentElement as never;
  const refusal = (edit: (xml: string) => string) => {
    const root = dps(edit);
    try {
      checkDpsIbsCbs(root, dpsFacts(root), NFSE_REFORM_TABLES);
      return 'accepted';
    } catch (err) {
      return (err as NfseRefusal).code;
    }
  };

  it('E0958: a cClassTrib of the NF-e only (200003) on an NFS-e; E0964: gTribRegular with a class that does not ask for it', () => {
    expect(refusal((x) => x)).toBe('accepted');
    expect(refusal((x) => x.replace('<CST>000</CST><cClassTrib>000001</cClassTrib>', '<CST>200</CST><cClassTrib>200003</cClassTrib>'))).toBe('E0958');
    expect(refusal((x) => x.replace('<cClassTrib>000001</cClassTrib>', '<cClassTrib>000001</cClassTrib><gTribRegular><CSTReg>000</CSTReg><cClassTribReg>000001</cClassTribReg></gTribRegular>'))).toBe('E0964');
  });

  it('E0971: gDif with a CST whose indicator ind_gDif is 0 (000); E0972: CST 515 (515001, a deferral of the NFS-e) without gDif', () => {
    const gDif = '<gDif><pDifUF>100.00</pDifUF><pDifMun>100.00</pDifMun><pDifCBS>100.00</pDifCBS></gDif>';
    expect(refusal((x) => x.replace('<cClassTrib>000001</cClassTrib>', `<cClassTrib>000001</cClassTrib>${gDif}`))).toBe('E0971');
    expect(refusal((x) => x.replace('<CST>000</CST><cClassTrib>000001</cClassTrib>', '<CST>515</CST><cClassTrib>515001</cClassTrib>'))).toBe('E0972');
    expect(refusal((x) => x.replace('<CST>000</CST><cClassTrib>000001</cClassTrib>', `<CST>515</CST><cClassTrib>515001</cClassTrib>${gDif}`))).toBe('accepted');
  });
});
