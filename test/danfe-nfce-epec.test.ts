import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/kernel/paths.js';
import { danfeInputFromXml, renderDanfeNfce } from '../src/danfe/index.js';
import { DanfeNotAuthorizedError } from '../src/danfe/danfe-input.js';
import { receiptCopies } from '../src/danfe/receipt-text.js';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';
import { pdfWorkspace } from './support/pdf-tools.js';

// docs/fiscal/offline-contingency.md#epec-sp: the DANFE NFC-e of SP's EPEC (tpEmis 4), printed from the signed NFC-e
// once its EPEC is registered, read back with poppler's pdftotext: the EPEC text (sped-da's DANFCE) and the time the
// contingency began (Ajuste SINIEF 19/16 cl. 11 § 1º I b).
const { pdfText, cleanup } = pdfWorkspace('danfe-nfce-epec-');
afterAll(cleanup);

const EPEC = { protocol: '135260000000321', registeredAt: '2026-07-15T12:05:09-03:00' };
const note = () => buildNfce(simpleSale(), testContext(NUMERIC_ISSUER, {
  tpEmis: 4, contingency: { at: new Date('2026-07-15T15:01:00Z'), reason: 'SEFAZ-SP sem resposta na autorizacao' },
})).xml;
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('DANFE NFC-e of an EPEC (SP)', () => {
  it('says it was printed in EPEC contingency, regularly received, with the contingency start (São Paulo time)', async () => {
    const text = flat(await pdfText(await renderDanfeNfce(danfeInputFromXml(note(), { epec: EPEC }))));
    expect(text).toContain('DANFE-NFC-e Impresso em contingência - EPEC');
    expect(text).toContain('Regularmente recebido pela administração tributária autorizadora');
    // dhCont 15:01:00Z is 12:01:00 in São Paulo (-03:00).
    expect(text).toContain('Data de entrada em contingência: 15/07/2026 12:01:00');
    expect(text).not.toContain('EMITIDA EM CONTINGÊNCIA');
  });

  it('the text receipt carries the same lines; a normal note carries none of them', () => {
    const lines = (xml: string, extras = {}) => receiptCopies(danfeInputFromXml(xml, extras), 48)
      .flatMap((c) => c.blocks).flatMap((b) => (b.kind === 'text' ? b.lines : [])).join(' ');
    const epec = lines(note(), { epec: EPEC });
    expect(epec).toContain('DANFE-NFC-e Impresso em contingência - EPEC');
    expect(epec).toContain('Data de entrada em contingência: 15/07/2026 12:01:00');
    expect(receiptCopies(danfeInputFromXml(note(), { epec: EPEC }), 48)).toHaveLength(1);
    // An authorized normal note (a real PR production NFC-e) prints none of them, whatever extras say.
    expect(lines(readFileSync(join(PROJECT_ROOT, 'test/fixtures/samples/nfce/nfce_v3.10_PR_producao_autorizada_NFCeProd2.xml'), 'utf8'), { epec: EPEC })).not.toContain('EPEC');
  });

  it('a tpEmis 4 NFC-e whose EPEC is not registered has no DANFE yet', async () => {
    await expect(renderDanfeNfce(danfeInputFromXml(note()))).rejects.toThrow(DanfeNotAuthorizedError);
  });
});
