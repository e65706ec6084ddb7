import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../documents/nfe/domain/index.js';
import type { NfeRequest } from '../documents/nfe/domain/nfe-request.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from '../../test/support/nfe-fixtures.js';
import { nfeFacts } from './nfe-facts.js';
import { model55Rejection } from './nfe55-rules.js';

// The simulator's model 55 rules on notes the gateway builds, then altered the way a faulty
// client would write them: each alteration draws the MOC's cStat.

function built(req: NfeRequest = interstateRequest()): string {
  const p = prepareNfe(req, NFE_CONTEXT);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext()).xml;
}
const cStatOf = (xml: string) => model55Rejection(nfeFacts(xml))?.cStat ?? null;

describe('model55Rejection', () => {
  const xml = built();

  it('passes a note the gateway built, and ignores an NFC-e', () => {
    expect(cStatOf(xml)).toBeNull();
    expect(cStatOf(xml.replace('<mod>55</mod>', '<mod>65</mod>').replace(/<dest>.*<\/dest>/, ''))).toBeNull();
  });

  it('recipient: missing (719), without name (724) or address (726)', () => {
    expect(cStatOf(xml.replace(/<dest>.*<\/dest>/, ''))).toBe(719);
    expect(cStatOf(xml.replace(/<dest>(.*?)<xNome>[^<]*<\/xNome>/, '<dest>$1'))).toBe(724);
    expect(cStatOf(xml.replace(/<enderDest>.*<\/enderDest>/, ''))).toBe(726);
  });

  it('idEstrangeiro in Brazil: 721 only when the buyer is not a final consumer (MOC E03a-20, NT 2015.002)', () => {
    const withId = xml.replace(/<CPF>52998224725<\/CPF>/, '<idEstrangeiro>AB12345</idEstrangeiro>');
    expect(withId).toContain('<indFinal>1</indFinal>');
    expect(cStatOf(withId)).toBeNull();
    expect(cStatOf(withId.replace('<indFinal>1</indFinal>', '<indFinal>0</indFinal>'))).toBe(721);
  });

  it('idDest against the CFOPs (731/732/733) and the states (520/523/727)', () => {
    expect(cStatOf(xml.replace('<idDest>2</idDest>', '<idDest>1</idDest>'))).toBe(732);
    expect(cStatOf(xml.replace(/<CFOP>6108<\/CFOP>/g, '<CFOP>5102</CFOP>'))).toBe(733);
    expect(cStatOf(xml.replace(/<CFOP>6108<\/CFOP>/g, '<CFOP>7102</CFOP>'))).toBe(731);
    expect(cStatOf(xml.replace('<UF>RJ</UF>', '<UF>SP</UF>'))).toBe(523);
    const foreign = xml.replace('<idDest>2</idDest>', '<idDest>3</idDest>').replace(/<CPF>52998224725<\/CPF>/, '<idEstrangeiro>AB12345</idEstrangeiro>').replace(/<CFOP>6108<\/CFOP>/g, '<CFOP>7102</CFOP>');
    expect(cStatOf(foreign)).toBe(727);
    expect(cStatOf(foreign.replace('<idEstrangeiro>AB12345</idEstrangeiro>', '<CPF>52998224725</CPF>'))).toBe(720);
  });

  it('DIFAL group: required (694) and forbidden (695)', () => {
    expect(cStatOf(xml.replace(/<ICMSUFDest>.*?<\/ICMSUFDest>/, ''))).toBe(694);
    expect(cStatOf(xml.replace('<indIEDest>9</indIEDest>', '<indIEDest>2</indIEDest>'))).toBe(695);
  });

  it('DANFE NFC-e format (710) and home delivery (794) are NFC-e only', () => {
    expect(cStatOf(xml.replace('<tpImp>1</tpImp>', '<tpImp>4</tpImp>'))).toBe(710);
    expect(cStatOf(xml.replace('<indPres>2</indPres>', '<indPres>4</indPres>'))).toBe(794);
  });

  it('billing: fields (905), net value (902), due dates in order (850), installments sum (851)', () => {
    const req = interstateRequest();
    req.cobranca = { fatura: { valor_original: 3444.87 }, duplicatas: [{ vencimento: '2026-08-15', valor: 1722.43 }, { vencimento: '2026-09-15', valor: 1722.44 }] };
    const billed = built(req);
    expect(cStatOf(billed)).toBeNull();
    expect(cStatOf(billed.replace(/<nFat>[^<]*<\/nFat>/, ''))).toBe(905);
    expect(cStatOf(billed.replace('<vLiq>3444.87</vLiq>', '<vLiq>3444.00</vLiq>'))).toBe(902);
    expect(cStatOf(billed.replace('<dVenc>2026-09-15</dVenc>', '<dVenc>2026-08-01</dVenc>'))).toBe(850);
    expect(cStatOf(billed.replace('<vDup>1722.44</vDup>', '<vDup>1722.45</vDup>'))).toBe(851);
  });
});
