// DANFSe (NFS-e Padrão Nacional, A4) checked by tools we did not write: poppler's pdftotext/pdfinfo/
// pdfimages read the PDF, zbar decodes the QR code from a 200 dpi rendering (pdftoppm).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DanfeInputError } from '../src/danfe/index.js';
import { DANFSE_QUEUE, DANFSE_WORKERS, DANFSE_XML_MAX_BYTES, DanfseBusy, renderDanfse } from '../src/danfe/nfse/index.js';
import { logoPng } from './support/logo-samples.js';
import { pdfWorkspace, run } from './support/pdf-tools.js';

const fixtures = resolve(import.meta.dirname, 'fixtures');
const RJ = readFileSync(join(fixtures, 'samples/nfse/nfse_v1.01_RJ_producaorestrita_autorizada_assinada.xml'), 'utf8');
const RJ_KEY = '33045572211905971000105000000000014625124504258429';
// The RJ sample edited: production, taker with CPF, intermediary, ISSQN withheld by the taker,
// federal withholdings, discounts, a deduction, complementary information, no IBS/CBS.
const EDITED = readFileSync(join(fixtures, 'nfse/nfse_v1.01_editada_tomador_cpf_intermediario_retencoes.xml'), 'utf8');
const EDITED_KEY = '33045572211905971000105000000000020126031234567895';
const URL = 'https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=';

const { toFile, pdfText, inWatermark, pdfInfo, symbols, cleanup } = pdfWorkspace('danfse-');
afterAll(cleanup);

/** QR symbols zbar finds on the page rendered at 200 dpi. */
const qrCodes = (pdf: Buffer) => symbols(pdf, 'qrcode', 200);

const groups = (key: string) => (key.match(/.{1,4}/g) ?? []).join(' ');

describe('DANFSe of the real restricted-production NFS-e (Rio de Janeiro)', () => {
  it('one A4 page with the key, number, dates, parties and amounts in pt-BR', async () => {
    const pdf = await renderDanfse(RJ);
    const info = await pdfInfo(pdf);
    expect(info.pages).toBe(1);
    expect([Math.round(info.width), Math.round(info.height)]).toEqual([595, 842]);
    const text = await pdfText(pdf);
    expect(text).toContain('DANFSe - Documento Auxiliar da NFS-e');
    expect(text).toContain(groups(RJ_KEY));
    expect(text).toMatch(/146\s+30\/12\/2025\s+30\/12\/2025 19:01:35\s+100 - NFS-e Gerada/);
    expect(text).toMatch(/6\s+333\s+30\/12\/2025 19:00:06\s+60631/);
    expect(text).toContain('GUIDI SISTEMAS E SERVICOS EM TECNOLOGIA DA INFORMACAO LTDA');
    expect(text).toContain('11.905.971/0001-05');
    expect(text).toContain('MXM & JETTAX');
    expect(text).toContain('39.847.728/0001-99');
    expect(text).toMatch(/01\.01\.01\s+Análise e desenvolvimento de sistemas\./);
    expect(text).toContain('115021000');
    expect(text).toContain('Analise e desenvolvimento de sistemas (MXM)');
    // ISSQN: service, discount, deduction, base, rate, tax.
    expect(text).toMatch(/10\.000,00\s+0,00\s+0,00\s+10\.000,00\s+5,00 %\s+500,00/);
    // Federal: IRRF, CP, CSLL withheld; COFINS 7,60 % = 760,00 not withheld.
    expect(text).toMatch(/150,00\s+0,00\s+465,00\s+0,00 %\s+0,00\s+7,60 %\s+760,00\s+2 - PIS\/COFINS não retidos/);
    // Totals: service, discounts, ISSQN withheld, total withheld, net value.
    expect(text).toMatch(/10\.000,00\s+0,00\s+0,00\s+0,00\s+615,00\s+9\.385,00/);
    expect(text).toContain('IBS / CBS');
    expect(text).toMatch(/Niterói \(3303302\)\s+000 \/ 000001\s+-\s+8\.740,00/);
    expect(text).toMatch(/8,74\s+0,00\s+8,74\s+78,66\s+9\.385,00/);
    expect(text).not.toContain('INTERMEDIÁRIO DO SERVIÇO');
    expect(text).toContain(`${URL}${RJ_KEY}`);
  });

  it('the QR code decodes to the public consultation address with the key', async () => {
    expect(await qrCodes(await renderDanfse(RJ))).toEqual([`${URL}${RJ_KEY}`]);
  });

  it('tpAmb 2 is marked SEM VALOR FISCAL / HOMOLOGAÇÃO in the header and across the page', async () => {
    const pdf = await renderDanfse(RJ);
    expect(await pdfText(pdf)).toContain('SEM VALOR FISCAL / HOMOLOGAÇÃO');
    expect(await inWatermark(pdf, 'SEM VALOR FISCAL')).toBe(1);
    expect(await inWatermark(pdf, 'CANCELADA')).toBe(0);
  });
});

describe('DANFSe with a CPF taker, an intermediary and withholdings (production)', () => {
  it('shows the taker, the intermediary and every withheld amount', async () => {
    const text = await pdfText(await renderDanfse(EDITED));
    expect(text).toContain(groups(EDITED_KEY));
    expect(text).toMatch(/201\s+15\/03\/2026\s+16\/03\/2026 10:21:07/);
    expect(text).toMatch(/MARIA JOSÉ DA SILVA\s+529\.982\.247-25/);
    expect(text).toContain('AVENIDA PAULISTA, 1578 - APTO 12 - BELA VISTA');
    expect(text).toContain('INTERMEDIÁRIO DO SERVIÇO');
    expect(text).toMatch(/AGÊNCIA INTERMEDIADORA DE SERVIÇOS LTDA\s+45\.997\.418\/0001-53/);
    expect(text).toContain('contato@intermediadora.example.com.br');
    expect(text).toContain('2 - Retido pelo tomador');
    expect(text).toMatch(/10\.000,00\s+200,00\s+300,00\s+9\.500,00\s+5,00 %\s+475,00/);
    expect(text).toMatch(/150,00\s+110,00\s+95,00\s+0,65 %\s+65,00\s+3,00 %\s+300,00\s+1 - PIS\/COFINS retidos/);
    expect(text).toMatch(/10\.000,00\s+100,00\s+200,00\s+475,00\s+1\.195,00\s+8\.505,00/);
    expect(text).toContain('Contrato 2026/015 - parcela 3 de 12');
    expect(text).not.toContain('IBS / CBS');
    expect(text).not.toContain('SEM VALOR FISCAL');
    expect(await qrCodes(await renderDanfse(EDITED))).toEqual([`${URL}${EDITED_KEY}`]);
  });

  it('the canceled option marks the page; without it nothing says canceled', async () => {
    const canceled = await renderDanfse(EDITED, { canceled: true, canceledAt: '2026-03-20T09:00:00-03:00' });
    expect(await pdfText(canceled)).toContain('NFS-e CANCELADA EM 20/03/2026 09:00:00');
    expect(await inWatermark(canceled, 'NFS-e CANCELADA')).toBe(1);
    expect(await inWatermark(canceled, 'SEM VALOR FISCAL')).toBe(0);
    const plain = await renderDanfse(EDITED);
    expect(await pdfText(plain)).not.toContain('CANCELADA');
    expect(await inWatermark(plain, 'CANCELADA')).toBe(0);
  });

  it("draws the issuer's logo in place of its name", async () => {
    const pdf = await renderDanfse(EDITED, { logo: logoPng({ colorType: 2, bitDepth: 8 }) });
    const { stdout } = await run('pdfimages', ['-list', toFile(pdf)]);
    expect(stdout).toMatch(/\n\s+1\s+0\s+image\s+120\s+60\s+rgb/);
    await expect(renderDanfse(EDITED, { logo: logoPng({ colorType: 6, bitDepth: 8 }) })).rejects.toThrow(/normalize it first/);
  });

  it('the fullest note (intermediary, IBS/CBS, the longest texts) stays on one page, texts cut with an ellipsis', async () => {
    const long = (word: string) => Array.from({ length: 400 }, (_, i) => `${word}${i}`).join(' ').slice(0, 2000);
    const interm = /<interm>.*?<\/interm>/.exec(EDITED)![0];
    const xml = RJ.replace('</toma>', `</toma>${interm}`)
      .replace(/<xDescServ>[^<]*<\/xDescServ>/, `<xDescServ>${long('servico')}</xDescServ>`)
      .replace('</cServ></serv>', `</cServ><infoCompl><xInfComp>${long('info')}</xInfComp></infoCompl></serv>`)
      .replace('</valores><IBSCBS>', `</valores><xOutInf>${long('outinf')}</xOutInf><IBSCBS>`);
    const pdf = await renderDanfse(xml, { canceled: true });
    expect((await pdfInfo(pdf)).pages).toBe(1);
    const text = await pdfText(pdf);
    expect(text).toContain('servico0 servico1');
    expect(text).toContain('info0 info1');
    expect(text).toMatch(/…/);
    expect(text).toContain('INTERMEDIÁRIO DO SERVIÇO');
    expect(text).toMatch(/8,74\s+0,00\s+8,74\s+78,66\s+9\.385,00/);
    expect(await qrCodes(pdf)).toEqual([`${URL}${RJ_KEY}`]);
  });
});

describe('DANFSe refusals and the pool', () => {
  it('refuses what is not an authorized NFS-e, and a document beyond the size bound before any thread', async () => {
    const dps = readFileSync(join(fixtures, 'samples/nfse/dps_v1.01_RJ_producaorestrita_assinada_extraida_da_nfse.xml'), 'utf8');
    await expect(renderDanfse(dps)).rejects.toThrow(DanfeInputError);
    await expect(renderDanfse(dps)).rejects.toThrow(/not an NFS-e/);
    const huge = RJ.replace('</NFSe>', `<!--${'x'.repeat(DANFSE_XML_MAX_BYTES)}--></NFSe>`);
    await expect(renderDanfse(huge)).rejects.toThrow(/more than 1048576 bytes/);
    await expect(renderDanfse(RJ, { primaryColor: 'blue' })).rejects.toThrow(DanfeInputError);
  });

  it('a flood beyond the waiting room is refused with DanfseBusy (503), the rest rendered', async () => {
    const calls = Array.from({ length: DANFSE_WORKERS + DANFSE_QUEUE + 2 }, () => renderDanfse(RJ));
    const settled = await Promise.allSettled(calls);
    const refused = settled.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(2);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DanfseBusy);
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(DANFSE_WORKERS + DANFSE_QUEUE);
  });
});
