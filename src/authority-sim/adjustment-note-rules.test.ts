import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../documents/nfe/domain/index.js';
import type { NfeRequest } from '../documents/nfe/domain/nfe-request.js';
import { NFE_CONTEXT, nfeDocumentContext } from '../../test/support/nfe-fixtures.js';
import { creditNote, debitNote, ownKey } from '../../test/support/adjustment-notes.js';
import { adjustmentNoteRejection } from './adjustment-note-rules.js';
import { nfeFacts } from './nfe-facts.js';

// The simulator's NT 2025.002-RTC rules on credit and debit notes (docs/fiscal/credit-debit-notes.md),
// on notes the gateway builds, then altered the way a faulty client would write them: each alteration
// draws the official code and words.

function built(req: NfeRequest): string {
  const p = prepareNfe(req, { ...NFE_CONTEXT, taxReform: true, today: '2026-11-28' });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext({ emittedAt: new Date('2026-11-28T13:00:00Z') })).xml;
}
const answer = (xml: string) => {
  const r = adjustmentNoteRejection(nfeFacts(xml));
  return r ? `${r.cStat} ${r.xMotivo}` : null;
};

const ICMS40 = '<ICMS><ICMS40><orig>0</orig><CST>41</CST></ICMS40></ICMS>';
const PIS07 = '<PIS><PISNT><CST>07</CST></PISNT></PIS>';

describe('adjustmentNoteRejection', () => {
  const credit = built(creditNote());
  const debit = built(debitNote());

  it('passes the credit and the debit note the gateway builds', () => {
    expect(answer(credit)).toBeNull();
    expect(answer(debit)).toBeNull();
  });

  it('B25.2-20 (1164): a nota de crédito without tpNFCredito', () => {
    expect(answer(credit.replace('<tpNFCredito>04</tpNFCredito>', ''))).toBe('1164 Rejeição: Não informado tipo de nota de crédito');
  });

  it('B25.2-40 (1152): a nota de crédito 03 (return) that is outbound', () => {
    const ret = credit.replace('<tpNFCredito>04</tpNFCredito>', '<tpNFCredito>03</tpNFCredito>');
    expect(answer(ret)).toBeNull();
    expect(answer(ret.replace('<tpNF>0</tpNF>', '<tpNF>1</tpNF>'))).toBe('1152 Rejeição: Tipo de Operação incompatível com NF-e de Crédito do tipo Retorno');
  });

  it('B25-100 (1003): a nota de crédito referencing an NFC-e (but type 03) or another document', () => {
    const nfce = credit.replace(ownKey(41), ownKey(41, '65'));
    expect(answer(nfce)).toBe('1003 Rejeição: NF-e de crédito faz referência a documento fiscal diferente de NF-e modelo 55');
    expect(answer(nfce.replace('<tpNFCredito>04</tpNFCredito>', '<tpNFCredito>03</tpNFCredito>'))).toBeNull();
    const cte = credit.replace(/<refNFe>/, '<refCTe>').replace(/<\/refNFe>/, '</refCTe>');
    expect(answer(cte)?.slice(0, 4)).toBe('1003');
  });

  it('B25-30/40/50/60 (254, 255, 269, 678) extended to the nota de crédito 01, 03 and 04', () => {
    expect(answer(credit.replace(/<NFref>.*?<\/NFref>/, ''))).toBe('254 Rejeição: NF-e complementar não possui NF referenciada');
    expect(answer(credit.replace(/(<NFref>.*?<\/NFref>)/, `$1<NFref><refNFe>${ownKey(42)}</refNFe></NFref>`))?.slice(0, 3)).toBe('255');
    expect(answer(credit.replace(ownKey(41), ownKey(41, '55', '11222333000181')))?.slice(0, 3)).toBe('269');
    expect(answer(credit.replace(ownKey(41), ownKey(41, '55', NFE_CONTEXT.issuer.cnpj, '33')))?.slice(0, 3)).toBe('678');
  });

  it('B25-80 (1001): ICMS, PIS or impostoDevol on an item of a nota de débito 06; not on the types the sources exempt', () => {
    const withIcms = debit.replace('<imposto><IBSCBS>', `<imposto>${ICMS40}<IBSCBS>`);
    expect(answer(withIcms)).toBe('1001 Rejeição: NF-e com finalidade de débito ou crédito somente para IBS/CBS');
    expect(answer(debit.replace('<imposto><IBSCBS>', `<imposto>${PIS07}<IBSCBS>`))?.slice(0, 4)).toBe('1001');
    expect(answer(debit.replace('</imposto>', '</imposto><impostoDevol><pDevol>100.00</pDevol><IPI><vIPIDevol>0.00</vIPIDevol></IPI></impostoDevol>'))?.slice(0, 4)).toBe('1001');
    // Debit 07 (perda em estoque) and credit 03/04/06 keep their other taxes in at least one reading of the NT.
    expect(answer(withIcms.replace('<tpNFDebito>06</tpNFDebito>', '<tpNFDebito>07</tpNFDebito>'))).toBeNull();
    expect(answer(credit.replace('<imposto><IBSCBS>', `<imposto>${ICMS40}<IBSCBS>`))).toBeNull();
    expect(answer(credit.replace('<tpNFCredito>04</tpNFCredito>', '<tpNFCredito>02</tpNFCredito>').replace(/<NFref>.*?<\/NFref>/, '').replace('<imposto><IBSCBS>', `<imposto>${ICMS40}<IBSCBS>`))?.slice(0, 4)).toBe('1001');
  });

  it('UB106-30 (1133): gTransfCred on a note that is not a nota de débito, with the item number', () => {
    const transfer = '<IBSCBS><CST>800</CST><cClassTrib>800001</cClassTrib><gTransfCred><vIBS>0.50</vIBS><vCBS>4.50</vCBS></gTransfCred></IBSCBS>';
    const onDebit = debit.replace(/<IBSCBS>.*?<\/IBSCBS>/, transfer);
    expect(answer(onDebit)).toBeNull();
    expect(answer(onDebit.replace('<finNFe>6</finNFe><tpNFDebito>06</tpNFDebito>', '<finNFe>1</finNFe>'))).toBe('1133 Rejeição: Finalidade de Emissão da Nota Fiscal incompatível com o CST [nItem:1]');
  });
});
