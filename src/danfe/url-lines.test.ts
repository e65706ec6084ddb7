import { describe, expect, it } from 'vitest';
import { urlLines, urlPieces } from './url-lines.js';

// Monospaced stand-in metrics: every character 5 points wide at size 10.
const mono = (text: string, size: number) => text.length * size * 0.5;

describe('urlPieces', () => {
  it('ends each piece after / ? or . and keeps runs of them together', () => {
    expect(urlPieces('https://www.sefaz.mt.gov.br/nfce/consultanfce?a=1')).toEqual([
      'https://', 'www.', 'sefaz.', 'mt.', 'gov.', 'br/', 'nfce/', 'consultanfce?', 'a=1',
    ]);
    expect(urlPieces('www.nfce.go.gov.br/post/ver/214413/consulta-nfc-e-homologacao').at(-1)).toBe('consulta-nfc-e-homologacao');
    expect(urlPieces('plain')).toEqual(['plain']);
  });
});

describe('urlLines', () => {
  const url = 'https://www.homologacao.nfce.fazenda.sp.gov.br/NFCeConsultaPublica'; // 66 characters

  it('keeps an address that fits on one line at the given size', () => {
    expect(urlLines(url, mono, 330, 10, 5)).toEqual({ lines: [url], size: 10 });
  });

  it('shrinks a little (to 90% at most) rather than break a line that almost fits', () => {
    const { lines, size } = urlLines(url, mono, 320, 10, 5);
    expect(lines).toEqual([url]);
    expect(size).toBeGreaterThanOrEqual(9);
    expect(mono(url, size)).toBeLessThanOrEqual(320);
  });

  it('breaks only after / ? . and never inside a word; every line fits', () => {
    for (const width of [100, 160, 240]) {
      const { lines, size } = urlLines(url, mono, width, 10, 5);
      expect(lines.join('')).toBe(url);
      for (const line of lines.slice(0, -1)) expect(line).toMatch(/[/?.]$/);
      for (const line of lines) expect(mono(line, size)).toBeLessThanOrEqual(width);
    }
    expect(urlLines(url, mono, 240, 10, 5).lines).toEqual(['https://www.homologacao.nfce.fazenda.sp.gov.br/', 'NFCeConsultaPublica']);
  });

  it('shrinks the type so the longest piece fits, down to the smallest size', () => {
    // "NFCeConsultaPublica" is 19 characters: 95 points at 10, so 80 points need 8.4.
    const { lines, size } = urlLines(url, mono, 80, 10, 5);
    expect(size).toBeLessThanOrEqual(8.4);
    expect(size).toBeGreaterThan(8);
    expect(lines).toContain('NFCeConsultaPublica');
    expect(lines.join('')).toBe(url);
  });
});
