import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { encodePc860, pc860Text } from './code-page.js';

// glibc's CP860 table, not ours, says what the bytes read as.
const decode = (bytes: Buffer) => execFileSync('iconv', ['-f', 'CP860', '-t', 'UTF-8'], { input: bytes }).toString('utf8');

describe('PC860 text', () => {
  it('keeps every letter Portuguese writes, upper and lower case, as iconv reads them back', () => {
    const text = 'ÁÀÂÃÉÊÍÓÔÕÚÜÇ áàâãéêíóôõúüç nº 1ª Situação CONTINGÊNCIA AUTORIZAÇÃO';
    const bytes = encodePc860(text);
    expect(bytes).toHaveLength([...text].length);
    expect(decode(bytes)).toBe(text);
  });

  it('degrades what PC860 lacks to the plain letter or its ASCII form, one character to at least one, never garbage', () => {
    expect(pc860Text('Crème brûlée, Ŝ, ĉ, ő')).toBe('Crème brulée, S, c, o');
    expect(pc860Text('“aspas” ‘simples’ – travessão — … €')).toBe('"aspas" \'simples\' - travessão - ... EUR');
    expect(pc860Text('ﬁ ² ½ 中 😀')).toBe('fi ² ½ ? ?');
    // Decomposed input (NFD, as some keyboards and databases send it) prints as the composed letter.
    expect(pc860Text('Sa\u0303o Joa\u0303o')).toBe('São João');
    expect(decode(encodePc860('Crème “ótimo” €'))).toBe('Crème "ótimo" EUR');
  });

  it('turns control characters into blanks: no text byte may become a printer command', () => {
    const bytes = encodePc860('a\x1b@b\x1dVc\nd\te\x7f');
    expect([...bytes].filter((b) => b < 0x20)).toEqual([]);
    expect(bytes.toString('latin1')).toBe('a @b Vc d e?');
  });
});
