// The DANFE NF-e's "CÁLCULO DO IMPOSTO" prints every total the layout asks for (docs/fiscal/danfe-nfe-taxes.md):
// the DIFAL totals (NT 2015.003), FCP and FCP-ST (NT 2016.002), the import tax and the ICMS relief,
// read back from the PDF by poppler's pdftotext.
import { afterAll, describe, expect, it } from 'vitest';
import { renderDanfeNfe } from '../src/danfe/nfe/index.js';
import { nfeProcSample } from './support/nfe-proc-sample.js';
import { pdfWorkspace } from './support/pdf-tools.js';

const { pdfText, cleanup } = pdfWorkspace('danfe-nfe-taxes-');
afterAll(cleanup);

describe('DANFE NF-e tax totals', () => {
  it('prints vII, vICMSUFRemet, vFCPUFDest, vICMSUFDest, vFCP, vFCPST and vICMSDeson under their labels (printed in capitals)', async () => {
    // Distinct figures, one per total, in the ICMSTot order of the layout.
    const xml = nfeProcSample({ items: 1 })
      .xml.replace('<vICMSDeson>0.00</vICMSDeson>', '<vICMSDeson>3750.60</vICMSDeson><vFCPUFDest>66.85</vFCPUFDest><vICMSUFDest>267.41</vICMSUFDest><vICMSUFRemet>12.34</vICMSUFRemet>')
      .replace('<vFCP>0.00</vFCP>', '<vFCP>45.67</vFCP>')
      .replace('<vFCPST>0.00</vFCPST>', '<vFCPST>126.07</vFCPST>')
      .replace('<vII>0.00</vII>', '<vII>1234.56</vII>');
    const text = await pdfText(await renderDanfeNfe(xml));
    expect(text).toMatch(/V\. IMP\. IMPORTAÇÃO\s+V\. ICMS UF REMET\.\s+V\. FCP UF DEST\.\s+V\. ICMS UF DEST\.\s+VALOR DO FCP\s+VALOR DO FCP S\.T\.\s+V\. ICMS DESONERADO/);
    expect(text).toMatch(/1\.234,56\s+12,34\s+66,85\s+267,41\s+45,67\s+126,07\s+3\.750,60/);
  });

  it('prints zeros when the note has none of them, and still fits one sheet', async () => {
    const text = await pdfText(await renderDanfeNfe(nfeProcSample({ items: 1 }).xml));
    expect(text).toMatch(/V\. IMP\. IMPORTAÇÃO[^\n]*V\. ICMS DESONERADO\s*\n\s*0,00\s+0,00\s+0,00\s+0,00\s+0,00\s+0,00\s+0,00/);
    expect(text).toContain('FOLHA 1/1');
  });
});
