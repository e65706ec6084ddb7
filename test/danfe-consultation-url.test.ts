// Division V's "Consulte pela Chave de Acesso em <url>" read back by poppler: whoever types the
// address from paper must see it whole, broken (if at all) only after '/', '?' or '.'.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { renderDanfeNfce, type DanfeInput } from '../src/danfe/index.js';
import { knownUfs, nfceUrls } from '../src/fiscal/qrcode/index.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'danfe-url-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const KEY = '35260312345678000195650070000001231102938475';

function note(urlChave: string): DanfeInput {
  return {
    accessKey: KEY,
    tpAmb: 2,
    tpEmis: 1,
    number: '123',
    series: '7',
    issuedAt: '2026-03-31T21:05:09-03:00',
    issuer: { cnpj: '12345678000195', name: 'Padaria Exemplo Ltda', address: { street: 'Rua A', number: '1', city: 'São Paulo', uf: 'SP' } },
    items: [{ number: 1, code: '1', description: 'Pão', quantity: '1.0000', unit: 'UN', unitPrice: '1.00', total: '1.00' }],
    totals: { products: '1.00', discount: '0.00', additions: '0.00', total: '1.00' },
    payments: [{ method: '01', amount: '1.00' }],
    authorization: { protocol: '135260000123456', receivedAt: '2026-03-31T21:05:10-03:00' },
    qrCode: `${urlChave}?p=${KEY}|2|2|1|ABC`,
    urlChave,
  };
}

/** The lines pdftotext reads between the consultation heading and the access key. */
async function urlLinesOf(pdf: Buffer, name: string): Promise<string[]> {
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, pdf);
  const { stdout } = await run('pdftotext', ['-layout', file, '-']);
  const lines = stdout.split('\n').map((l) => l.trim());
  const start = lines.findIndex((l) => l.includes('Consulte pela Chave de Acesso em'));
  const end = lines.findIndex((l, i) => i > start && l.startsWith(KEY.slice(0, 4)));
  expect(start, stdout).toBeGreaterThanOrEqual(0);
  expect(end, stdout).toBeGreaterThan(start);
  return lines.slice(start + 1, end).filter(Boolean);
}

describe('DANFE consultation address (pdftotext)', () => {
  const cases = knownUfs().flatMap((uf) => ([1, 2] as const).map((tpAmb) => ({ uf, tpAmb, url: nfceUrls(uf, tpAmb).urlChave })));

  it('SP homologation, the longest published address, is printed whole on 80 mm', async () => {
    const url = nfceUrls('SP', 2).urlChave;
    expect(url).toBe('https://www.homologacao.nfce.fazenda.sp.gov.br/NFCeConsultaPublica');
    const lines = await urlLinesOf(await renderDanfeNfce(note(url), { width: 80 }), 'sp-80');
    expect(lines.join('')).toBe(url);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/[/?.]$/);
  });

  it('every state, both environments, 80 and 58 mm: lines end only after / ? . and join to the address', async () => {
    for (const { uf, tpAmb, url } of cases) {
      for (const width of [80, 58] as const) {
        const lines = await urlLinesOf(await renderDanfeNfce(note(url), { width }), `${uf}-${tpAmb}-${width}`);
        const where = `${uf} tpAmb ${tpAmb} ${width} mm: ${JSON.stringify(lines)}`;
        expect(lines.join(''), where).toBe(url);
        for (const line of lines.slice(0, -1)) expect(line, where).toMatch(/[/?.]$/);
      }
    }
  });
});
