// Code 128 subset C, checked by zbar (a decoder we did not write): a symbol carrying every value
// 00-99 exercises the whole table, the start C and stop symbols and the modulo-103 check.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import { afterAll, describe, expect, it } from 'vitest';
import { CODE128_PATTERNS, code128c } from './code128.js';
import { Sheet } from './nfe-sheet.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'code128-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function decode(digits: string, name: string): Promise<string[]> {
  const doc = new PDFDocument({ size: [1400, 120], margin: 0 });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
  });
  const symbol = code128c(digits);
  const module = 1200 / (symbol.modules + 20);
  new Sheet(doc, '#000000').bars(symbol.widths, 10 * module + 20, 20, module, 80);
  doc.end();
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, await done);
  await run('pdftoppm', ['-r', '200', '-png', '-singlefile', file, file]);
  const { stdout } = await run('zbarimg', ['--raw', '-q', '-Sdisable', '-Scode128.enable', `${file}.png`]);
  return stdout.split('\n').filter(Boolean);
}

describe('code128c', () => {
  it('has 103 distinct data/start symbols of 11 modules, three bars each', () => {
    expect(CODE128_PATTERNS).toHaveLength(103);
    expect(new Set(CODE128_PATTERNS).size).toBe(103);
    for (const p of CODE128_PATTERNS) expect([...p].reduce((a, b) => a + Number(b), 0)).toBe(11);
  });

  it('encodes a 44-digit key as start + 22 + check + stop: 277 modules', () => {
    const s = code128c('43180906929383000163550010000000261000010301');
    expect(s.widths).toHaveLength(6 * 24 + 7);
    expect(s.modules).toBe(11 * 24 + 13);
  });

  it('refuses odd or non-digit input', () => {
    expect(() => code128c('123')).toThrow(/even/);
    expect(() => code128c('12a4')).toThrow(/even/);
    expect(() => code128c('')).toThrow(/even/);
  });

  it('zbar reads every symbol value 00-99 back', async () => {
    const all = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0')).join('');
    expect(await decode(all.slice(0, 100), 'low')).toEqual([all.slice(0, 100)]);
    expect(await decode(all.slice(100), 'high')).toEqual([all.slice(100)]);
    expect(await decode('0000', 'zeros')).toEqual(['0000']);
  });
});
