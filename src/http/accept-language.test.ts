import { describe, expect, it } from 'vitest';
import { preferredLanguage } from './accept-language.js';

describe('preferredLanguage', () => {
  it('Portuguese for the tags a Brazilian browser sends, by quality', () => {
    expect(preferredLanguage('pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('pt-BR');
    expect(preferredLanguage('en-US,en;q=0.9,pt-BR;q=0.8')).toBe('en');
    expect(preferredLanguage('en;q=0.5, pt;q=0.8')).toBe('pt-BR');
    expect(preferredLanguage('pt-PT')).toBe('pt-BR');
  });
  it('English without the header, for unknown languages and for q=0', () => {
    expect(preferredLanguage(undefined)).toBe('en');
    expect(preferredLanguage('de-DE, fr;q=0.9')).toBe('en');
    expect(preferredLanguage('pt;q=0, en;q=0.1')).toBe('en');
    expect(preferredLanguage('pt;q=abc')).toBe('en');
  });
});
