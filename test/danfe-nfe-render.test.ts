// DANFE NF-e (model 55, A4) checked by tools we did not write: poppler's pdftotext/pdftoppm/pdfinfo
// /pdfimages read the PDF, zbar decodes the Code-128 access key from a 300 dpi rendering.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { DanfeInputError } from '../src/danfe/index.js';
import { DANFE_NFE_LIMITS, DanfeNfeBusy, renderDanfeNfe, renderDanfeNfeOffThread } from '../src/danfe/nfe/index.js';
import { DANFE_NFE_QUEUE, DANFE_NFE_WORKERS } from '../src/danfe/nfe/danfe-nfe-limits.js';
import { itemCode, nfeProcSample, SAMPLE_PROTOCOL, SAMPLE_RECIPIENT } from './support/nfe-proc-sample.js';
import { logoPng } from './support/logo-samples.js';
import { pdfWorkspace, run } from './support/pdf-tools.js';

const samples = resolve(import.meta.dirname, 'fixtures/samples');
const sample = (name: string) => readFileSync(join(samples, name), 'utf8');
const RS_HOM = sample('nfe/nfe_v4.00_RS_homologacao_autorizada.xml');
const SP_CANCELED = sample('nfe/nfe_v4.00_SP_producao_autorizada_com_retEvento_cancelamento.xml');
const RTC = sample('nfe/nfe_v4.00_RTC_IBSCBS_sintetica_assinatura_invalida.xml');
const RS_KEY = '43180906929383000163550010000000261000010301';

const { toFile, pdfText, inWatermark, pdfInfo, symbols, cleanup } = pdfWorkspace('danfe-nfe-');
afterAll(cleanup);

/** Code-128 symbols zbar finds on one page rendered at 300 dpi. */
const barcodes = (pdf: Buffer, page = 1) => symbols(pdf, 'code128', 300, page);

/** Pixels of the first page at 100 dpi within 12 levels of `rgb` on every channel. */
async function pixelsNear(pdf: Buffer, rgb: [number, number, number]): Promise<number> {
  const file = toFile(pdf);
  await run('pdftoppm', ['-r', '100', '-f', '1', '-l', '1', '-png', '-singlefile', file, file]);
  const png = PNG.sync.read(readFileSync(`${file}.png`));
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (rgb.every((c, k) => Math.abs(png.data[i + k]! - c) <= 12)) n++;
  }
  return n;
}

const groups = (key: string) => (key.match(/.{4}/g) ?? []).join(' ');
const count = (text: string, word: string) => text.split(word).length - 1;

describe('DANFE NF-e from the real RS homologation nfeProc', () => {
  it('A4 portrait, one sheet; the barcode decodes to the access key; key in groups of four, protocol, parties', async () => {
    const pdf = await renderDanfeNfe(RS_HOM);
    const info = await pdfInfo(pdf);
    expect(info).toEqual({ pages: 1, width: 595.28, height: 841.89 });
    expect(await barcodes(pdf)).toEqual([RS_KEY]);
    const text = await pdfText(pdf);
    expect(text).toContain(groups(RS_KEY));
    expect(text).toContain('143180006932433 - 25/09/2018 16:21:05');
    expect(text).toContain('NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL');
    expect(text).toMatch(/RECEBEMOS DE UMA RAZAO SOCIAL DE TESTE QUALQUER OS PRODUTOS\/SERVIÇOS CONSTANTES DA NOTA FISCAL INDICADA AO LADO/);
    expect(text).toContain('Documento Auxiliar da');
    expect(text).toContain('Nota Fiscal Eletrônica');
    expect(text).toContain('FOLHA 1/1');
    expect(text).toMatch(/1 - SAÍDA\s+1\s/);
    expect(text).toContain('Nº 000.000.026');
    expect(text).toContain('SÉRIE 001');
    expect(text).toContain('Consulta de autenticidade no portal nacional da NF-e');
    expect(text).toContain('www.nfe.fazenda.gov.br/portal ou no site da Sefaz Autorizadora');
    expect(text).toContain('Venda de producao do estabelecimento');
    expect(text).toContain('06.929.383/0001-63');
    expect(text).toContain('58.716.523/0001-19');
    expect(text).toContain('9 - Sem Transporte');
    // the item: code, NCM, orig+CSOSN, CFOP, quantity, unit price, total
    expect(text).toMatch(/11007\s+UM PRODUTO TESTE QUALQUER\s+64011000\s+0202\s+6101\s+UN\s+10,00\s+50,00\s+500,00/);
    // the duplicate of the invoice
    expect(text).toMatch(/001[\s\S]*31\/12\/2018/);
    // tpAmb 2: no fiscal value, in a band under the header and as a diagonal watermark
    expect(text).toContain('NF-e EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL');
    expect(await inWatermark(pdf, 'SEM VALOR FISCAL')).toBe(1);
  });
});

describe('DANFE NF-e markings, settings and other notes', () => {
  it('a production note with its registered cancellation: CANCELADA with the protocol, no homologation warning', async () => {
    const pdf = await renderDanfeNfe(SP_CANCELED);
    const text = await pdfText(pdf);
    expect(text).toContain("NF-e CANCELADA - Protocolo de cancelamento: 135210128997350 - 04/02/2021 15:15:09");
    expect(text).not.toContain('SEM VALOR FISCAL');
    expect(await inWatermark(pdf, 'NF-e CANCELADA')).toBe(1);
    expect(text).toContain('M R SANTOS DE PAULA TECIDOS ME');
    expect(text).toContain('135210128765156 - 04/02/2021 14:36:36');
    expect(text).toContain('SAIDA COM SUSPENSAO DO IPI');
    expect(await barcodes(pdf)).toEqual(['35210258716523000119550000000573661346317847']);
  });

  it('a cancellation given by the caller (event stored apart) is printed too', async () => {
    const text = await pdfText(await renderDanfeNfe(RS_HOM, { cancellation: { protocol: '143180000000999', at: '2018-09-26T10:00:00-03:00' } }));
    expect(text).toContain('NF-e CANCELADA - Protocolo de cancelamento: 143180000000999 - 26/09/2018 10:00:00');
    expect(text).toContain('SEM VALOR FISCAL');
  });

  it('prints the IBS/CBS totals of a Reforma Tributária note', async () => {
    const text = await pdfText(await renderDanfeNfe(RTC));
    expect(text).toContain('VALOR TOTAL DA CBS');
    expect(text).toMatch(/2\.000,50\s+30,00\s+40,00\s+50,00\s+87,29\s+5\.000,00/);
    expect(text).toMatch(/158\.106,35\s+18\.972,77\s+213\.443,57\s+6\.640,46/);
  });

  it('an entrada note in SVC contingency says so: tpNF 0 in the box, contingency in the additional data', async () => {
    const xml = nfeProcSample({ items: 2, tpAmb: 1 })
      .xml.replace('<tpNF>1</tpNF>', '<tpNF>0</tpNF>')
      .replace('<tpEmis>1</tpEmis>', '<tpEmis>6</tpEmis>')
      .replace('<procEmi>0</procEmi><verProc>test</verProc></ide>', '<procEmi>0</procEmi><verProc>test</verProc><dhCont>2026-11-20T09:00:00-03:00</dhCont><xJust>SEFAZ SP FORA DO AR DESDE AS NOVE HORAS</xJust></ide>');
    const text = await pdfText(await renderDanfeNfe(xml));
    expect(text).toMatch(/1 - SAÍDA\s+0\s/);
    expect(text).toContain('EMITIDA EM CONTINGÊNCIA (SVC-AN) desde 20/11/2026 09:00:00 - SEFAZ SP FORA DO AR DESDE AS NOVE HORAS');
    expect(text).not.toContain('HOMOLOGAÇÃO');
  });

  it('a note with services and an IE of substitute taxpayer: CÁLCULO DO ISSQN and the IE ST in the header', async () => {
    const xml = nfeProcSample({ items: 2, tpAmb: 1 })
      .xml.replace('<IE>111222333444</IE><CRT>3</CRT>', '<IE>111222333444</IE><IEST>998877665544</IEST><IM>4455667</IM><CNAE>4744099</CNAE><CRT>3</CRT>')
      .replace('</ICMSTot>', '</ICMSTot><ISSQNtot><vServ>1500.00</vServ><vBC>1500.00</vBC><vISS>75.00</vISS><dCompet>2026-11-20</dCompet></ISSQNtot>');
    const text = await pdfText(await renderDanfeNfe(xml));
    expect(text).toContain('CÁLCULO DO ISSQN');
    expect(text).toMatch(/4455667\s+1\.500,00\s+1\.500,00\s+75,00/);
    expect(text).toMatch(/111222333444\s+998877665544\s+11\.222\.333\/0001-81/);
  });

  it("draws the issuer's logo and tints the titles with its colour", async () => {
    const logo = logoPng({ colorType: 2, bitDepth: 8 });
    const pdf = await renderDanfeNfe(RS_HOM, { settings: { logo, primaryColor: '#1A5FB4' } });
    const file = toFile(pdf);
    const { stdout } = await run('pdfimages', ['-list', file]);
    expect(stdout).toMatch(/\n\s+1\s+0\s+image\s+120\s+60\s+rgb/);
    // The titles are drawn in the issuer's colour; without settings nothing is.
    expect(await pixelsNear(await renderDanfeNfe(RS_HOM, { settings: { primaryColor: '#1A5FB4' } }), [0x1a, 0x5f, 0xb4])).toBeGreaterThan(200);
    expect(await pixelsNear(await renderDanfeNfe(RS_HOM), [0x1a, 0x5f, 0xb4])).toBe(0);
    expect(await barcodes(pdf)).toEqual([RS_KEY]);
  });

  it('refuses what is not an authorised model-55 nfeProc, or is beyond the limits', async () => {
    const nfce = sample('nfce/nfce_v3.10_PR_homologacao_autorizada_NFCeHom2.xml');
    await expect(renderDanfeNfe(nfce)).rejects.toThrow(/model 55/);
    const bare = RS_HOM.replace(/<protNFe[\s\S]*<\/protNFe>/, '');
    await expect(renderDanfeNfe(bare)).rejects.toThrow(DanfeInputError);
    const rejected = RS_HOM.replace('<cStat>100</cStat>', '<cStat>302</cStat>');
    await expect(renderDanfeNfe(rejected)).rejects.toThrow(/authorized/);
    const huge = RS_HOM.replace('<infCpl>', `<infCpl>${'x'.repeat(DANFE_NFE_LIMITS.xmlBytes)}`).replace('</infNFe>', `<infAdic><infCpl>${'x'.repeat(DANFE_NFE_LIMITS.xmlBytes)}</infCpl></infAdic></infNFe>`);
    await expect(renderDanfeNfe(huge)).rejects.toThrow(/more than 1048576 bytes/);
    await expect(renderDanfeNfeOffThread(huge)).rejects.toThrow(DanfeInputError);
    const tooMany = nfeProcSample({ items: DANFE_NFE_LIMITS.items + 1 }).xml;
    await expect(renderDanfeNfe(tooMany)).rejects.toThrow(/991 items/);
    const hostileLogo = logoPng({ colorType: 6, bitDepth: 8 });
    await expect(renderDanfeNfe(RS_HOM, { settings: { logo: hostileLogo } })).rejects.toThrow(/normalize it first/);
  });
});

describe('DANFE NF-e over several sheets', () => {
  it('30 items: 2+ sheets numbered FOLHA i/N, the header (and barcode) on each, every item exactly once', async () => {
    const { xml, key } = nfeProcSample({ items: 30 });
    const pdf = await renderDanfeNfe(xml);
    const { pages } = await pdfInfo(pdf);
    expect(pages).toBeGreaterThanOrEqual(2);
    const all = await pdfText(pdf);
    for (let n = 1; n <= 30; n++) expect(count(all, itemCode(n)), itemCode(n)).toBe(1);
    for (let p = 1; p <= pages; p++) {
      const page = await pdfText(pdf, p);
      expect(page).toContain(`FOLHA ${p}/${pages}`);
      expect(page).toContain(groups(key));
      expect(page).toContain(SAMPLE_PROTOCOL);
    }
    // The canhoto and the recipient block are on the first sheet only.
    const first = await pdfText(pdf, 1);
    expect(first).toContain('RECEBEMOS DE FERRAGENS EMITENTE DE TESTES LTDA');
    expect(first).toContain(SAMPLE_RECIPIENT);
    expect(await pdfText(pdf, 2)).not.toContain('RECEBEMOS DE');
    expect(await barcodes(pdf, 2)).toEqual([key]);
    expect(all).toContain('5 CAIXA');
    expect(all).toContain('TRANSPORTES RAPIDOS LTDA');
    expect(all).toMatch(/41,750\s+40,500/);
  });

  it('990 items (the XSD maximum) with 120 duplicates and a long infCpl: rendered off the event loop, nothing lost', async () => {
    const infCpl = Array.from({ length: 400 }, (_, i) => `PEDIDO ${i + 1}`).join('; ');
    const { xml, key } = nfeProcSample({ items: 990, duplicates: 120, infCpl, tpAmb: 1 });
    let longest = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    const pdf = await renderDanfeNfeOffThread(xml).finally(() => clearInterval(ticker));
    // The same work on the event loop holds it for the whole rendering (about a second here);
    // through the pool the loop never waits more than a small part of that.
    const blocking = performance.now();
    await renderDanfeNfe(xml);
    const onLoop = performance.now() - blocking;
    expect(longest).toBeLessThan(onLoop / 3);
    const { pages } = await pdfInfo(pdf);
    expect(pages).toBeGreaterThan(10);
    const all = await pdfText(pdf);
    for (let n = 1; n <= 990; n++) if (count(all, itemCode(n)) !== 1) expect.fail(`${itemCode(n)} printed ${count(all, itemCode(n))} times`);
    expect(count(all, `FOLHA ${pages}/${pages}`)).toBe(1);
    expect(all).toContain('PEDIDO 400;'.slice(0, -1));
    expect(all).toContain('Nº 120 venc.');
    expect(all).not.toContain('SEM VALOR FISCAL');
    expect(await barcodes(pdf, pages)).toEqual([key]);
    // Two renderings, pdftotext and zbarimg over a dozen pages: a loaded 2-core machine took over 30 s.
  }, 180_000);

  it('a flood beyond the waiting room is refused with DanfeNfeBusy (503), the rest rendered', async () => {
    const { xml } = nfeProcSample({ items: 3 });
    const calls = Array.from({ length: DANFE_NFE_WORKERS + DANFE_NFE_QUEUE + 2 }, () => renderDanfeNfeOffThread(xml));
    const settled = await Promise.allSettled(calls);
    const refused = settled.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(2);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DanfeNfeBusy);
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(DANFE_NFE_WORKERS + DANFE_NFE_QUEUE);
  });

  it('renders several notes at once through the pool, each its own', async () => {
    const notes = [1, 2, 3].map((n) => nfeProcSample({ items: 5, nNF: 100 + n }));
    const pdfs = await Promise.all(notes.map((n) => renderDanfeNfeOffThread(n.xml, { settings: { primaryColor: '#AA0000' } })));
    for (const [i, pdf] of pdfs.entries()) expect(await pdfText(pdf)).toContain(groups(notes[i]!.key));
  });
});
