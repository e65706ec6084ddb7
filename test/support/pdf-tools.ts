// Reading rendered PDFs back with tools we did not write: poppler (pdftotext, pdfinfo, pdftoppm,
// pdfimages) and zbar. Shared by the DANFE NF-e and DANFSe tests.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** A scratch folder for one test file; call `cleanup` in afterAll. */
export function pdfWorkspace(prefix: string) {
  const work = mkdtempSync(join(tmpdir(), prefix));
  let seq = 0;

  function toFile(pdf: Buffer): string {
    const file = join(work, `d${++seq}.pdf`);
    writeFileSync(file, pdf);
    return file;
  }

  /** The page's horizontal text as laid out (the diagonal watermark left out: see inWatermark). */
  async function pdfText(pdf: Buffer, page?: number): Promise<string> {
    const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
    const { stdout } = await run('pdftotext', ['-layout', '-nodiag', ...range, toFile(pdf), '-'], { maxBuffer: 64 << 20 });
    return stdout;
  }

  /**
   * How many times `phrase` appears in the diagonal watermark: in all the text minus in the horizontal
   * text (blanks removed: poppler splits rotated words).
   */
  async function inWatermark(pdf: Buffer, phrase: string): Promise<number> {
    const file = toFile(pdf);
    const squeezed = async (args: string[]) => (await run('pdftotext', [...args, file, '-'])).stdout.replace(/\s+/g, '');
    const needle = phrase.replace(/\s+/g, '');
    const times = (hay: string) => hay.split(needle).length - 1;
    return times(await squeezed(['-raw'])) - times(await squeezed(['-raw', '-nodiag']));
  }

  async function pdfInfo(pdf: Buffer): Promise<{ pages: number; width: number; height: number }> {
    const { stdout } = await run('pdfinfo', [toFile(pdf)]);
    const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(stdout);
    return { pages: Number(/Pages:\s+(\d+)/.exec(stdout)?.[1]), width: Number(size?.[1]), height: Number(size?.[2]) };
  }

  /** Symbols of one kind ('code128', 'qrcode') zbar finds on one page rendered at `dpi`. */
  async function symbols(pdf: Buffer, kind: 'code128' | 'qrcode', dpi: number, page = 1): Promise<string[]> {
    const file = toFile(pdf);
    await run('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-png', '-singlefile', file, file]);
    const { stdout } = await run('zbarimg', ['--raw', '-q', '-Sdisable', `-S${kind}.enable`, `${file}.png`], { maxBuffer: 16 << 20 }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    return stdout.split('\n').filter(Boolean);
  }

  return { toFile, pdfText, inWatermark, pdfInfo, symbols, cleanup: () => rmSync(work, { recursive: true, force: true }) };
}
