import { describe, expect, it } from 'vitest';
import { closestWord } from './closest-word.js';

describe('closestWord', () => {
  it('finds the word a slip meant: a letter changed, dropped, added or two swapped', () => {
    expect(closestWord('nfce.authorised', ['nfce.authorized', 'nfce.rejected', 'nfe.authorized'])).toBe('nfce.authorized');
    expect(closestWord('descripton', ['description', 'quantity'])).toBe('description');
    expect(closestWord('quantiyt', ['description', 'quantity'])).toBe('quantity');
    expect(closestWord('NCM', ['ncm', 'cfop'])).toBe('ncm');
    expect(closestWord('dinhero', ['dinheiro', 'pix', 'credito'])).toBe('dinheiro');
  });

  it('says nothing for another word, a tie, the word itself or an overlong text', () => {
    expect(closestWord('events', ['event_types', 'url'])).toBeUndefined();
    expect(closestWord('cfo', ['cfop', 'cfox'])).toBeUndefined();
    expect(closestWord('pix', ['pix', 'credito'])).toBeUndefined();
    expect(closestWord('x'.repeat(65), ['x'.repeat(64)])).toBeUndefined();
    expect(closestWord('', ['a'])).toBeUndefined();
  });
});
