import type { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../documents/nfe/domain/index.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from '../../test/support/nfe-fixtures.js';
import { nfeFacts } from './nfe-facts.js';
import type { ContentContext } from './nfe-rules.js';
import { totalsPaymentRejection, transportRejection } from './totals-rules.js';
import { sliceElement } from '../fiscal/sefaz/xml-slice.js';

// MOC groups W, X, Y, YA, YB (totals-rules.ts): the gateway's note passes; one value changed the way a
// faulty client writes it is refused with the rule's code and words.

function note(): string {
  const p = prepareNfe(interstateRequest(), NFE_CONTEXT);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext()).xml;
}
const ctx = { now: new Date(), signer: {} as X509Certificate, digestValue: '', cscs: new Map() } as ContentContext;
const verdict = (xml: string) => totalsPaymentRejection(nfeFacts(xml), ctx);
const transport = (xml: string) => {
  const inf = sliceElement(xml, 'infNFe')!;
  return transportRejection('55', sliceElement(inf.inner, 'ide'), sliceElement(inf.inner, 'transp'));
};

describe('totalsPaymentRejection', () => {
  const xml = note();

  it('passes the note the gateway builds (interstate DIFAL sale)', () => {
    expect(verdict(xml)).toBeNull();
    expect(transport(xml)).toBeNull();
  });

  it('refuses a total one cent off the items (W03-10 531, W04c-10 798, W14-10 603)', () => {
    const off = (name: string) => xml.replace(new RegExp(`(<ICMSTot>[\\s\\S]*?<${name}>)([0-9.]+)`), (_, a: string, v: string) => a + (Number(v) + 0.01).toFixed(2));
    expect(verdict(off('vBC'))).toMatchObject({ cStat: 531, xMotivo: 'Rejeição: Total da BC ICMS difere do somatório dos itens' });
    expect(verdict(off('vFCPUFDest'))?.cStat).toBe(798);
    expect(verdict(off('vCOFINS'))?.cStat).toBe(603);
  });

  it('refuses installments numbered otherwise than 001, 002... (Y08-10 852) and an NF-e paid with a method the finality forbids (YA02-04 871)', () => {
    const withDup = xml.replace('<pag>', '<cobr><dup><nDup>1</nDup><dVenc>2026-08-01</dVenc><vDup>10.00</vDup></dup></cobr><pag>');
    expect(verdict(withDup)).toMatchObject({ cStat: 852, xMotivo: 'Rejeição: Número da parcela inválido ou não informado[nOcor:1]' });
    expect(verdict(xml.replace('<finNFe>1</finNFe>', '<finNFe>4</finNFe>'))?.cStat).toBe(871);
  });

  it('refuses a vehicle in an interstate operation (X02-20 868) and a carrier IE invalid for its state (X07-20 544)', () => {
    expect(transport(xml.replace('</transporta>', '</transporta><veicTransp><placa>ABC1D23</placa></veicTransp>'))?.cStat).toBe(868);
    expect(transport(xml.replace('<UF>SP</UF></transporta>', '<IE>110042490115</IE><UF>SP</UF></transporta>'))?.cStat).toBe(544);
  });
});
