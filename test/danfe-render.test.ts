// DANFE NFC-e checked by tools we did not write: poppler's pdftotext/pdftoppm/pdfinfo read the PDF,
// zbar decodes the QR code from a 300 dpi rendering.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { danfeInputFromXml, DanfeInputError, renderDanfeNfce, type DanfeSettings } from '../src/danfe/index.js';
import { buildNfceQrCode, nfceUrls } from '../src/fiscal/qrcode/index.js';
import { buildAccessKey } from '../src/fiscal/layout/access-key.js';
import { HOSTILE, logoPng } from './support/logo-samples.js';

const run = promisify(execFile);
const samples = resolve(import.meta.dirname, 'fixtures/samples/nfce');
const sample = (name: string) => readFileSync(join(samples, name), 'utf8');
const PR_HOM = sample('nfce_v3.10_PR_homologacao_autorizada_NFCeHom2.xml');
const PR_PROD = sample('nfce_v3.10_PR_producao_autorizada_NFCeProd2.xml');
const BA_OFFLINE = sample('nfce_v4.00_BA_homologacao_offline_tpEmis9_qrv2_assinada_sem_protocolo.xml');

const work = mkdtempSync(join(tmpdir(), 'danfe-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let seq = 0;

async function toFile(pdf: Buffer): Promise<string> {
  const file = join(work, `d${++seq}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

async function pdfText(pdf: Buffer): Promise<string> {
  const { stdout } = await run('pdftotext', ['-layout', await toFile(pdf), '-'], { maxBuffer: 64 << 20 });
  return stdout;
}

/** Text with every run of blanks and line breaks collapsed: lines a narrow roll wraps read as one. */
async function flatText(pdf: Buffer): Promise<string> {
  return (await pdfText(pdf)).replace(/\s+/g, ' ');
}

/** Renders at 300 dpi (only the last `bottomPt` points of a very long receipt) and decodes. */
async function decodeQr(pdf: Buffer, bottomPt?: number): Promise<string[]> {
  const file = await toFile(pdf);
  const dpi = 300;
  const crop: string[] = [];
  if (bottomPt !== undefined) {
    const { width, height } = await pageSizePt(pdf);
    const px = (pt: number) => String(Math.round((pt * dpi) / 72));
    crop.push('-x', '0', '-y', px(height - bottomPt), '-W', px(width), '-H', px(bottomPt));
  }
  await run('pdftoppm', ['-r', String(dpi), ...crop, '-png', '-singlefile', file, file]);
  const { stdout } = await run('zbarimg', ['--raw', '-q', '-Sdisable', '-Sqrcode.enable', `${file}.png`], { maxBuffer: 16 << 20 });
  return stdout.split('\n').filter(Boolean);
}

async function pageSizePt(pdf: Buffer): Promise<{ width: number; height: number }> {
  const { stdout } = await run('pdfinfo', [await toFile(pdf)]);
  const m = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(stdout);
  if (!m) throw new Error(`no page size in pdfinfo output: ${stdout}`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

function qrOf(xml: string): string {
  return danfeInputFromXml(xml).qrCode;
}

// ---------- synthetic NFC-e 4.00 (authorized nfeProc) ----------

interface Synthetic {
  items: number;
  tpAmb?: 1 | 2;
  withConsumer?: boolean;
  cancelled?: boolean;
}

const CNPJ = '12345678000195';

function money(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function syntheticNfceProc(o: Synthetic): { xml: string; key: string; qrCode: string; total: string; nProt: string } {
  const tpAmb = o.tpAmb ?? 1;
  const key = buildAccessKey({ cUF: 35, emittedYear: 2026, emittedMonth: 3, cnpj: CNPJ, mod: 65, serie: 7, nNF: 123, tpEmis: 1, cNF: '10293847' });
  const dets: string[] = [];
  let vProd = 0;
  for (let i = 1; i <= o.items; i++) {
    const unit = 199 + i * 37; // cents
    const qty = (i % 3) + 1;
    const total = unit * qty;
    vProd += total;
    const name = i === 1 && tpAmb === 2
      ? 'NOTA FISCAL EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL'
      : `Produto nº ${i} pão de açúcar orgânico com descrição longa que precisa quebrar linha`;
    dets.push(
      `<det nItem="${i}"><prod><cProd>789100000${String(i).padStart(4, '0')}</cProd><cEAN>SEM GTIN</cEAN><xProd>${name}</xProd><NCM>19059090</NCM><CFOP>5102</CFOP><uCom>UN</uCom><qCom>${qty}.0000</qCom><vUnCom>${money(unit)}00</vUnCom><vProd>${money(total)}</vProd><cEANTrib>SEM GTIN</cEANTrib><uTrib>UN</uTrib><qTrib>${qty}.0000</qTrib><vUnTrib>${money(unit)}</vUnTrib><indTot>1</indTot></prod><imposto><vTotTrib>1.00</vTotTrib></imposto></det>`,
    );
  }
  const vDesc = 150;
  const vNF = vProd - vDesc;
  const card = Math.floor(vNF / 2);
  const cash = vNF - card + 500; // R$ 5,00 of change
  const dhEmi = '2026-03-31T21:05:09-03:00';
  const qrCode = buildNfceQrCode({
    accessKey: key, tpAmb, tpEmis: 1, version: 2, uf: 'SP', csc: { id: '1', token: 'ABCDEF0123456789ABCDEF0123456789ABCD' },
    dhEmi, vNF: money(vNF), digestValue: 'm9ZrQTKMxv7A1Blnf/nmNGVX+N8=',
  });
  const dest = o.withConsumer ? '<dest><CPF>12345678909</CPF><xNome>Maria José da Conceição</xNome></dest>' : '';
  const nProt = '135260000123456';
  const cancel = o.cancelled
    ? `<retEvento versao="1.00"><infEvento><tpAmb>${tpAmb}</tpAmb><cStat>135</cStat><chNFe>${key}</chNFe><tpEvento>110111</tpEvento><dhRegEvento>2026-03-31T21:20:00-03:00</dhRegEvento><nProt>135260000999999</nProt></infEvento></retEvento>`
    : '';
  const xml = `<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><NFe><infNFe Id="NFe${key}" versao="4.00">`
    + `<ide><cUF>35</cUF><cNF>10293847</cNF><natOp>VENDA</natOp><mod>65</mod><serie>7</serie><nNF>123</nNF><dhEmi>${dhEmi}</dhEmi><tpNF>1</tpNF><idDest>1</idDest><cMunFG>3550308</cMunFG><tpImp>4</tpImp><tpEmis>1</tpEmis><cDV>${key.slice(-1)}</cDV><tpAmb>${tpAmb}</tpAmb><finNFe>1</finNFe><indFinal>1</indFinal><indPres>1</indPres><procEmi>0</procEmi><verProc>test</verProc></ide>`
    + `<emit><CNPJ>${CNPJ}</CNPJ><xNome>Padaria São João Ltda</xNome><xFant>Padaria do João</xFant><enderEmit><xLgr>Rua das Acácias</xLgr><nro>100</nro><xBairro>Vila Olímpia</xBairro><cMun>3550308</cMun><xMun>São Paulo</xMun><UF>SP</UF><CEP>04551000</CEP><fone>1133334444</fone></enderEmit><IE>111222333444</IE><CRT>1</CRT></emit>`
    + dest + dets.join('')
    + `<total><ICMSTot><vBC>0.00</vBC><vICMS>0.00</vICMS><vProd>${money(vProd)}</vProd><vFrete>0.00</vFrete><vSeg>0.00</vSeg><vDesc>${money(vDesc)}</vDesc><vOutro>0.00</vOutro><vNF>${money(vNF)}</vNF><vTotTrib>${money(o.items * 100)}</vTotTrib></ICMSTot></total>`
    + `<transp><modFrete>9</modFrete></transp><pag><detPag><tPag>03</tPag><vPag>${money(card)}</vPag></detPag><detPag><tPag>01</tPag><vPag>${money(cash)}</vPag></detPag><vTroco>5.00</vTroco></pag>`
    + `<infAdic><infCpl>Obrigado pela preferência! Volte sempre.</infCpl></infAdic></infNFe>`
    + `<infNFeSupl><qrCode><![CDATA[${qrCode}]]></qrCode><urlChave>${nfceUrls('SP', tpAmb).urlChave}</urlChave></infNFeSupl></NFe>`
    + `<protNFe versao="4.00"><infProt><tpAmb>${tpAmb}</tpAmb><chNFe>${key}</chNFe><dhRecbto>2026-03-31T21:05:10-03:00</dhRecbto><nProt>${nProt}</nProt><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>${cancel}</nfeProc>`;
  return { xml, key, qrCode, total: money(vNF), nProt };
}

// ---------- a real PNG logo: 160x80 RGB, the form the renderer draws as is (test/support/logo-samples.ts) ----------

const pngLogo = () => logoPng({ colorType: 2, bitDepth: 8, width: 160, height: 80 });

const BRANDED: DanfeSettings = { logo: pngLogo(), primaryColor: '#C2185B', footerText: 'Padaria do João - pão quentinho toda hora' };

// ---------- tests ----------

// CPU-heavy (PDF rendering, pdftoppm at 300 dpi + zbarimg): seconds each alone, ten times that on
// a loaded machine; 120 s is a last guard, not an expectation.
describe('DANFE NFC-e from the real PR 3.10 samples (authorized)', { timeout: 120_000 }, () => {
  it('homologation: key in groups of four, total, protocol, notice and unidentified consumer', async () => {
    const pdf = await renderDanfeNfce(danfeInputFromXml(PR_HOM));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('4117 0410 4227 2400 0187 6500 1000 0005 1010 0001 0235');
    expect(text).toMatch(/Valor a Pagar R\$\s+1\.500,00/);
    expect(text).toContain('Protocolo de autorização: 141170000192238');
    expect(text).toContain('Data de autorização: 12/04/2017 17:14:28');
    expect(text).toContain('NFC-e nº 000.000.510 Série 001 12/04/2017 17:14:07');
    expect((await flatText(pdf))).toContain('EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL');
    expect(text).toContain('CONSUMIDOR NÃO IDENTIFICADO');
    expect(text).toContain('http://www.fazenda.pr.gov.br/nfce/consulta');
    // The notice must come before the items ("prominently near the top").
    expect(text.indexOf('HOMOLOGAÇÃO')).toBeLessThan(text.indexOf('Descrição'));
  });

  it('production: no homologation notice, the protocol of the authorization', async () => {
    const text = await pdfText(await renderDanfeNfce(danfeInputFromXml(PR_PROD)));
    expect(text).not.toContain('HOMOLOGAÇÃO');
    expect(text).toContain('Protocolo de autorização: 141170361108204');
    expect(text).toMatch(/Valor a Pagar R\$\s+42,00/);
    expect(text).toMatch(/Dinheiro\s+42,00/);
    expect(text).toContain('4117 0310 4227 2400 0187 6500 1000 0000 0610 0000 5858');
  });

  it.each([80, 58] as const)('the QR code decodes to exactly the qrCode of the XML (%i mm)', async (width) => {
    for (const xml of [PR_HOM, PR_PROD]) {
      const pdf = await renderDanfeNfce(danfeInputFromXml(xml), { width });
      expect(await decodeQr(pdf)).toEqual([qrOf(xml)]);
    }
  });
});

describe('DANFE NFC-e from the real BA 4.00 offline sample (tpEmis 9, no protocol)', { timeout: 120_000 }, () => {
  it('says it was issued in contingency, pending authorization, and prints the approximate taxes', async () => {
    const pdf = await renderDanfeNfce(danfeInputFromXml(BA_OFFLINE));
    const text = await pdfText(pdf);
    expect(text).toContain('EMITIDA EM CONTINGÊNCIA');
    expect(text).toContain('Pendente de autorização');
    expect(text).not.toContain('Protocolo de autorização');
    expect((await flatText(pdf))).toContain('EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL');
    expect(text).toContain('2918 1033 6576 7700 0156 6500 1000 1654 3990 0165 4399');
    expect(text).toMatch(/Valor a Pagar R\$\s+150,00/);
    expect(text).toMatch(/Cartão de Débito\s+150,00/);
    expect(text).toContain('Tributos Totais Incidentes (Lei Federal 12.741/2012): R$ 35,75');
    expect(text).toContain('http://hinternet.sefaz.ba.gov.br/nfce/consulta');
    expect(text).toContain('NFC-e nº 000.165.439 Série 001 01/10/2018 07:28:14');
  });

  it.each([80, 58] as const)('its offline v2 QR code decodes exactly (%i mm)', async (width) => {
    const pdf = await renderDanfeNfce(danfeInputFromXml(BA_OFFLINE), { width });
    expect(await decodeQr(pdf)).toEqual([qrOf(BA_OFFLINE)]);
  });

  it('the 58 mm roll still shows the key in groups of four (over two lines)', async () => {
    const flat = await flatText(await renderDanfeNfce(danfeInputFromXml(BA_OFFLINE), { width: 58 }));
    expect(flat).toContain('2918 1033 6576 7700 0156 6500 1000 1654 3990 0165 4399');
    expect(flat).toContain('EMITIDA EM CONTINGÊNCIA');
  });

  it('characters Helvetica cannot encode print as "?" instead of garbage', async () => {
    const xml = BA_OFFLINE.replace('CILINDRO MESTRE', 'CILINDRO ≥ 😀 “aço” MESTRE');
    const flat = await flatText(await renderDanfeNfce(danfeInputFromXml(xml)));
    expect(flat).toContain('CILINDRO ? ? “aço” MESTRE');
  });

  it('refuses the copy without infNFeSupl: a DANFE NFC-e always carries the QR code', () => {
    const xml = sample('nfce_v4.00_BA_homologacao_offline_tpEmis9_assinada_sem_infNFeSupl.xml');
    expect(() => danfeInputFromXml(xml)).toThrow(DanfeInputError);
    expect(() => danfeInputFromXml(xml)).toThrow(/qrCode/);
  });
});

describe('DANFE NFC-e of a synthetic authorized 4.00 note', { timeout: 120_000 }, () => {
  const note30 = syntheticNfceProc({ items: 30, withConsumer: true });

  it('prints the identified consumer, every item, discount, payments and change', async () => {
    const pdf = await renderDanfeNfce(danfeInputFromXml(note30.xml));
    const text = await pdfText(pdf);
    expect(text).toContain('CONSUMIDOR CPF: 123.456.789-09');
    expect(text).toContain('Maria José da Conceição');
    expect(text).toMatch(/Qtde\. total de itens\s+30/);
    expect(text).toMatch(/Descontos R\$\s+-1,50/);
    expect(text).toMatch(/Cartão de Crédito\s+[\d.]+,\d\d/);
    expect(text).toMatch(/Troco R\$\s+5,00/);
    expect(text).toContain(`Protocolo de autorização: ${note30.nProt}`);
    const total = danfeInputFromXml(note30.xml).totals.total;
    expect(text).toMatch(new RegExp(`Valor a Pagar R\\$\\s+${total.replace('.', ',').replace(/\B(?=(\d{3})+,)/, '\\.')}`));
    for (const code of ['7891000000001', '7891000000015', '7891000000030']) expect(text).toContain(code);
    expect(text).not.toContain('HOMOLOGAÇÃO');
    expect(text).toContain('Tributos Totais Incidentes (Lei Federal 12.741/2012): R$ 30,00');
  });

  it.each([80, 58] as const)('with logo and primary colour the QR code still decodes exactly (%i mm)', async (width) => {
    const input = danfeInputFromXml(note30.xml, { settings: BRANDED });
    const pdf = await renderDanfeNfce(input, { width });
    expect(await decodeQr(pdf)).toEqual([note30.qrCode]);
    const text = await pdfText(pdf);
    expect(text).toContain('Padaria do João - pão quentinho toda hora');
    expect(text).toContain('Padaria São João Ltda');
  });

  it('page width follows the roll and the page grows with the items (300-item note)', async () => {
    const note300 = syntheticNfceProc({ items: 300 });
    const small = await pageSizePt(await renderDanfeNfce(danfeInputFromXml(note30.xml)));
    const bigPdf = await renderDanfeNfce(danfeInputFromXml(note300.xml));
    const big = await pageSizePt(bigPdf);
    expect(small.width).toBeCloseTo((80 * 72) / 25.4, 1);
    expect((await pageSizePt(await renderDanfeNfce(danfeInputFromXml(note30.xml), { width: 58 }))).width).toBeCloseTo((58 * 72) / 25.4, 1);
    expect(big.height).toBeGreaterThan(small.height * 5);
    const text = await pdfText(bigPdf);
    expect(text).toMatch(/Qtde\. total de itens\s+300/);
    expect(text).toContain('7891000000300');
    expect(await decodeQr(bigPdf, 500)).toEqual([note300.qrCode]);
  });

  it('a registered cancellation event prints NFC-e CANCELADA with its protocol', async () => {
    const cancelled = syntheticNfceProc({ items: 2, cancelled: true });
    const text = await pdfText(await renderDanfeNfce(danfeInputFromXml(cancelled.xml)));
    expect(text).toContain('NFC-e CANCELADA');
    expect(text).toContain('Protocolo de cancelamento: 135260000999999');
    expect(await pdfText(await renderDanfeNfce(danfeInputFromXml(note30.xml)))).not.toContain('CANCELADA');
  });

  it('homologation synthetic note shows the notice; a GIF logo or a bad colour is refused', async () => {
    const hom = syntheticNfceProc({ items: 3, tpAmb: 2 });
    expect(await flatText(await renderDanfeNfce(danfeInputFromXml(hom.xml)))).toContain('EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
    await expect(renderDanfeNfce(danfeInputFromXml(hom.xml, { settings: { logo: gif } }))).rejects.toThrow(/PNG or JPEG/);
    await expect(renderDanfeNfce(danfeInputFromXml(hom.xml, { settings: { primaryColor: 'red' } }))).rejects.toThrow(DanfeInputError);
  });

  it('renders a 10-item note in a few milliseconds', async () => {
    const input = danfeInputFromXml(syntheticNfceProc({ items: 10 }).xml, { settings: BRANDED });
    await renderDanfeNfce(input); // warm-up: module and font loading
    // CPU time of this process, not wall time: other work on the machine does not count (a loaded
    // machine stretched the wall-clock median several times over).
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = process.cpuUsage();
      await renderDanfeNfce(input);
      const used = process.cpuUsage(t0);
      times.push((used.user + used.system) / 1000);
    }
    times.sort((a, b) => a - b);
    const median = times[15]!;
    console.info(`DANFE NFC-e 10 items: median ${median.toFixed(1)} ms of CPU, min ${times[0]!.toFixed(1)} ms`);
    // Loose bound: catches a pathological regression.
    expect(median).toBeLessThan(150);
  });
});

describe('the renderer draws only a logo in normal form', () => {
  const note = syntheticNfceProc({ items: 2 });
  it.each([
    ['an RGBA PNG with damaged data (pdfkit would inflate it in a callback and end the process)', HOSTILE.corruptIdat(), /^logo is damaged: the CRC|^logo must be an 8-bit greyscale or RGB PNG/],
    ['a 20000x20000 bomb', HOSTILE.bomb20000(), /^logo is 20000x20000 pixels; the limit is 1024x1024/],
    ['a palette PNG with transparency', logoPng({ colorType: 3, bitDepth: 8, transparency: true }), /^logo must be an 8-bit greyscale or RGB PNG without transparency or interlacing/],
    ['an 8-byte JPEG', HOSTILE.eightByteJpeg(), /^logo is not a complete JPEG image/],
  ])('refuses %s with a DanfeInputError', async (_name, logo, message) => {
    const rendering = renderDanfeNfce(danfeInputFromXml(note.xml, { settings: { logo } }));
    await expect(rendering).rejects.toThrow(DanfeInputError);
    await expect(rendering).rejects.toThrow(message);
  });
});
