import { describe, expect, it } from 'vitest';
import { forbiddenCorrection, nextCorrection } from './correction-letter.js';

describe('forbiddenCorrection (conditions of use of the CC-e)', () => {
  it.each([
    ['Valor do frete passa a ser 30,00', 'values'],
    ['Quantidade do item 2: 5 unidades', 'values'],
    ['Corrigir para R$ 10,00 o desconto', 'values'],
    ['Destinatario: CNPJ 11222333000181', 'parties'],
    ['CPF do destinatario 529.982.247-25', 'parties'],
    ['Data de saida: 12/11/2026', 'dates'],
  ])('refuses %s (%s)', (text, rule) => {
    expect(forbiddenCorrection(text)?.rule).toBe(rule);
  });

  it.each([
    'Endereco de entrega: Rua A, 1, fundos',
    'Transportadora: retirar no deposito 3',
    'Informacoes complementares: pedido de compra 4471',
    'Descricao do item 1: Cafe torrado e moido 500g',
  ])('accepts %s', (text) => {
    expect(forbiddenCorrection(text)).toBeNull();
  });
});

describe('nextCorrection', () => {
  it('starts at 1, appends to the text in force and skips refused sequences', () => {
    expect(nextCorrection(null, 'Primeira correcao do texto', 'append')).toEqual({ sequence: 1, text: 'Primeira correcao do texto' });
    const so = {
      current: { text: 'Primeira correcao do texto' },
      letters: [{ sequence: 1, status: 'registered' as const }, { sequence: 2, status: 'rejected' as const }],
    };
    expect(nextCorrection(so, 'Segunda correcao', 'append')).toEqual({ sequence: 2, text: 'Primeira correcao do texto; Segunda correcao' });
    expect(nextCorrection(so, 'Texto inteiro novo', 'replace')).toEqual({ sequence: 2, text: 'Texto inteiro novo' });
  });

  it('waits for a pending letter and stops after 20', () => {
    expect(nextCorrection({ current: null, letters: [{ sequence: 1, status: 'pending' }] }, 'x'.repeat(20), 'append')).toHaveProperty('problem');
    const twenty = { current: { text: 't' }, letters: Array.from({ length: 20 }, (_, i) => ({ sequence: i + 1, status: 'registered' as const })) };
    expect(nextCorrection(twenty, 'x'.repeat(20), 'append')).toEqual({ problem: expect.stringMatching(/at most 20/) });
  });
});
