import { describe, expect, it } from 'vitest';
import { ReceiptLayout } from './receipt-layout.js';
import { MM, QR_MIN_MM, qrModulePt, qrSymbol } from './qr-symbol.js';
import { winAnsiText } from './win-ansi.js';

// Monospaced stand-in metrics: every character 5 points wide at size 10.
const mono = { width: (text: string, _font: string, size: number) => text.length * size * 0.5 };

describe('ReceiptLayout', () => {
  it('wraps on words and cuts words longer than the line', () => {
    const layout = new ReceiptLayout(mono, 0, 50, 0); // 10 characters per line at size 10
    expect(layout.wrap('pão de açúcar orgânico', 'Helvetica', 10, 50)).toEqual(['pão de', 'açúcar', 'orgânico']);
    expect(layout.wrap('7891000000001234', 'Helvetica', 10, 50)).toEqual(['7891000000', '001234']);
  });

  it('grows downward line by line and aligns right', () => {
    const layout = new ReceiptLayout(mono, 10, 100, 5);
    layout.pair('Troco R$', '5,00', { size: 10 });
    expect(layout.y).toBeCloseTo(5 + 12.2);
    const value = layout.ops.find((op) => op.kind === 'text' && op.text === '5,00');
    expect(value).toMatchObject({ x: 10 + 100 - 20 });
  });
});

describe('QR symbol', () => {
  it('is at least 25 mm, in whole 203 dpi dots, and fits the 58 mm printable width', () => {
    const long = `http://www.dfeportal.fazenda.pr.gov.br/consultaNFCe?chNFe=${'4'.repeat(44)}&x=${'a'.repeat(300)}`;
    for (const text of ['https://x.br/?p=1|2|1|1|ABC', long]) {
      const symbol = qrSymbol(text);
      const module = qrModulePt(symbol, 30, 48 * MM);
      expect((symbol.size * module) / MM).toBeGreaterThanOrEqual(QR_MIN_MM);
      const dots = module / MM / (25.4 / 203);
      expect(Math.abs(dots - Math.round(dots))).toBeLessThan(1e-9);
    }
  });
});

describe('WinAnsi text', () => {
  it('keeps Portuguese and cp1252 punctuation, folds or replaces what Helvetica cannot encode', () => {
    expect(winAnsiText('Pão de açúcar “extra” – 5€ nº 1')).toBe('Pão de açúcar “extra” – 5€ nº 1');
    expect(winAnsiText('Łódź ≥ 中 😀\tx')).toBe('?ódz ? ? ? x');
  });
});
