import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../documents/nfe/domain/index.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from '../../test/support/nfe-fixtures.js';
import { nfeFacts } from './nfe-facts.js';
import { registrationRejection } from './registration-rules.js';

// The simulator's register rules on a note the gateway built, then altered the way a client that
// skips the gateway's checks would write it: each alteration draws the MOC's cStat and words.

function built(): string {
  const req = interstateRequest();
  // A taxpayer recipient in RJ (SINTEGRA's RJ example 99.999.99-3), so dest/IE is written.
  const { cpf: _cpf, ...dest } = req.destinatario;
  req.destinatario = { ...dest, cnpj: '11222333000181', indicador_ie: 'contribuinte', ie: '99999993' };
  req.consumidor_final = false;
  req.presenca = 'nao_se_aplica';
  req.items = req.items.map(({ difal: _d, ...it }) => it);
  const p = prepareNfe(req, NFE_CONTEXT);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext()).xml;
}
const rejection = (xml: string) => registrationRejection(nfeFacts(xml));

describe('registrationRejection', () => {
  const xml = built();

  it('passes the note the gateway built (issuer SP 110.042.490.114, recipient RJ 99.999.99-3)', () => {
    expect(xml).toContain('<IE>110042490114</IE>');
    expect(xml).toContain('<IE>99999993</IE>');
    expect(rejection(xml)).toBeNull();
  });

  it('issuer IE with a wrong check digit: 209 (MOC C17-20)', () => {
    expect(rejection(xml.replace('<IE>110042490114</IE>', '<IE>110042490115</IE>'))).toMatchObject({ cStat: 209, xMotivo: 'Rejeição: IE do emitente inválida' });
  });

  it('recipient IE with a wrong check digit for its state: 210 (MOC E17-50)', () => {
    expect(rejection(xml.replace('<IE>99999993</IE>', '<IE>99999994</IE>'))).toMatchObject({ cStat: 210, xMotivo: 'Rejeição: IE do destinatário inválida' });
    // PR's algorithm on an RJ recipient: valid in PR (SINTEGRA's 123.45678-50), not in RJ.
    expect(rejection(xml.replace('<IE>99999993</IE>', '<IE>1234567850</IE>'))?.cStat).toBe(210);
  });

  it('an NCM not in the table: 778 with the item number (MOC I05-20); 00000000 is left alone', () => {
    const ncm = /<NCM>([0-9]{8})<\/NCM>/.exec(xml)![1]!;
    expect(rejection(xml.replace(`<NCM>${ncm}</NCM>`, '<NCM>99999999</NCM>'))).toMatchObject({ cStat: 778, xMotivo: 'Rejeição: Informado NCM inexistente[nItem:1]' });
    expect(rejection(xml.replace(`<NCM>${ncm}</NCM>`, '<NCM>00000000</NCM>'))).toBeNull();
  });
});
