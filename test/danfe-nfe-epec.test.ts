import { afterAll, describe, expect, it } from 'vitest';
import { DanfeInputError } from '../src/danfe/index.js';
import { renderDanfeNfe, renderDanfeNfeOffThread } from '../src/danfe/nfe/index.js';
import { nfeProcSample } from './support/nfe-proc-sample.js';
import { pdfWorkspace } from './support/pdf-tools.js';

// docs/fiscal/epec.md#the-danfe: the DANFE of an EPEC, printed from the signed NFe before the state authorizes it,
// read back with poppler's pdftotext.
const { pdfText, cleanup } = pdfWorkspace('danfe-epec-');
afterAll(cleanup);

const EPEC = { protocol: '891260000000123', registeredAt: '2026-11-20T10:16:02-03:00' };
/** The sample's NFe alone (no protNFe), issued with tpEmis 4, dhCont and xJust. */
function epecNote(): string {
  const proc = nfeProcSample({ items: 2, tpAmb: 2 }).xml;
  const nfe = /<NFe>[\s\S]*<\/NFe>/.exec(proc)![0].replace('<NFe>', '<NFe xmlns="http://www.portalfiscal.inf.br/nfe">');
  return nfe
    .replace('<tpEmis>1</tpEmis>', '<tpEmis>4</tpEmis>')
    .replace('<procEmi>0</procEmi><verProc>test</verProc></ide>', '<procEmi>0</procEmi><verProc>test</verProc><dhCont>2026-11-20T10:00:00-03:00</dhCont><xJust>SEFAZ SP SEM RESPOSTA DESDE AS DEZ HORAS</xJust></ide>');
}

describe('DANFE of an EPEC (NT 2014.001 3.1)', () => {
  it("carries the NT's expression, the EPEC protocol where the authorization's goes, and the contingency's reason and time", async () => {
    const text = await pdfText(await renderDanfeNfeOffThread(epecNote(), { epec: EPEC }));
    expect(text).toContain('DANFE impresso em contingência - DPEC regularmente recebida pela Receita Federal do Brasil');
    expect(text).toContain('PROTOCOLO DO EPEC');
    expect(text).toContain('891260000000123 - 20/11/2026 10:16:02');
    expect(text).toContain('EMITIDA EM CONTINGÊNCIA (EPEC) desde 20/11/2026 10:00:00 - SEFAZ SP SEM RESPOSTA DESDE AS DEZ HORAS');
    expect(text).not.toContain('PROTOCOLO DE AUTORIZAÇÃO DE USO');
  });

  it('an authorized note shows its authorization, not the mark; a bare note without tpEmis 4 is refused', async () => {
    const authorized = await pdfText(await renderDanfeNfe(nfeProcSample({ items: 1, tpAmb: 2 }).xml, { epec: EPEC }));
    expect(authorized).toContain('PROTOCOLO DE AUTORIZAÇÃO DE USO');
    expect(authorized).not.toContain('DPEC regularmente recebida');
    await expect(renderDanfeNfe(epecNote().replace('<tpEmis>4</tpEmis>', '<tpEmis>1</tpEmis>'), { epec: EPEC })).rejects.toThrow(DanfeInputError);
  });
});
