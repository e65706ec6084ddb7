import { describe, expect, it } from 'vitest';
import { cStatMessage, explainRejection } from './explain-rejection.js';
import { REJECTION_HINTS } from './rejection-hints.js';

// cStat codes of docs/fiscal/cstat.md that are rejections or denials (the others are successes).
const FACTS_REJECTIONS = [
  '110', '202', '204', '206', '213', '214', '215', '225', '226', '227', '236', '239', '243', '252', '280', '281', '283', '284', '290', '291', '293', '294',
  '297', '298', '301', '302', '373', '394', '395', '396', '397', '398', '399', '404', '420', '462', '463', '464', '501', '502', '539', '562', '564', '573',
  '580', '598', '656', '704', '709', '716', '717', '750', '751', '752', '767', '770', '778', '784',
];

describe('explainRejection', () => {
  it('has an official message and a hint for every rejection listed in docs/fiscal/cstat.md', () => {
    for (const code of FACTS_REJECTIONS) {
      expect(REJECTION_HINTS[code], code).toBeDefined();
      expect(cStatMessage(code), code).toBeTruthy();
    }
  });

  it('names the item field from the [nItem:n] of the xMotivo', () => {
    expect(explainRejection(778, 'Rejeicao: Informado NCM inexistente [nItem:3]')).toEqual({
      code: '778',
      message: 'Rejeicao: Informado NCM inexistente [nItem:3]',
      field: 'items[2].ncm',
      hint: expect.stringMatching(/NCM/),
    });
    expect(explainRejection('767').field).toBe('payments');
    expect(explainRejection('767').message).toBe('NFC-e com somatório dos pagamentos diferente do total da Nota Fiscal');
  });

  it('tells what to do when the number is held by another document (539)', () => {
    const r = explainRejection(539, 'Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe: 35261112345678000195650010000000421000000421]');
    expect(r.field).toBe('number');
    expect(r.hint).toMatch(/send the sale again/);
    expect(r.hint).toMatch(/series of its own/);
  });

  it('explains an unknown code without inventing a field', () => {
    const r = explainRejection('999', 'Rejeicao: Erro nao catalogado');
    expect(r).toMatchObject({ code: '999', message: 'Rejeicao: Erro nao catalogado', field: null });
    expect(r.hint.length).toBeGreaterThan(10);
  });
});
