// The pairing check of an event and the authority's answer reads elements, not text that looks like
// them inside a comment (the slicer class).
import { describe, expect, it } from 'vitest';
import { buildProcEventoNFe, ProcEventoMismatchError } from './proc-evento.js';

const evento = '<evento versao="1.00"><infEvento Id="ID1"><chNFe>35000000000000000000000000000000000000000001</chNFe><tpEvento>110110</tpEvento><nSeqEvento>1</nSeqEvento></infEvento></evento>';
const answer = (chNFe: string, hidden = '') =>
  `<retEvento versao="1.00"><infEvento>${hidden}<chNFe>${chNFe}</chNFe><tpEvento>110110</tpEvento><nSeqEvento>1</nSeqEvento></infEvento></retEvento>`;

describe('buildProcEventoNFe pairs by the real elements', () => {
  it('an answer for another note is refused even when a comment names this one', () => {
    const other = '35000000000000000000000000000000000000000002';
    expect(() => buildProcEventoNFe(evento, answer(other, '<!-- <chNFe>35000000000000000000000000000000000000000001</chNFe> -->'))).toThrow(ProcEventoMismatchError);
    expect(() => buildProcEventoNFe(evento, answer(other, '<![CDATA[<chNFe>35000000000000000000000000000000000000000001</chNFe>]]>'))).toThrow(ProcEventoMismatchError);
  });

  it('the answer for this note pairs, whatever a comment says', () => {
    expect(buildProcEventoNFe(evento, answer('35000000000000000000000000000000000000000001', '<!-- <chNFe>x</chNFe> -->'))).toContain('<procEventoNFe');
  });
});
