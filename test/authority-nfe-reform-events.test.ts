import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEvent } from '../src/fiscal/xml/events/event-envelope.js';
import {
  buildDeliveryForecastEvent, buildEventCancellation, buildReformIssuerEvent, DELIVERY_FORECAST_DESC, EVENT_CANCELLATION_DESC, REFORM_ISSUER_EVENT_DESC,
} from '../src/fiscal/xml/events/index.js';
import type { EventOutcome } from '../src/fiscal/sefaz/outcomes.js';
import { brasiliaTime, uniqueCnpj } from './support/authority-fixtures.js';
import type { AuthorityHarness } from './support/authority-harness.js';
import { authorizedNfe55, RS55, startShiftedHarness } from './support/authority-nfe55.js';

// NT 2025.002-RTC issuer events 112110-112150 at the simulated event reception (docs/fiscal/reform-events.md):
// the NT gives them no codes of their own, so the general MOC rules answer: 493 schema, 574 author, 573 repeat.
let h: AuthorityHarness;
let cnpj: string;
let recipient: string;
let nNF = 1;

beforeAll(async () => {
  ({ h } = await startShiftedHarness());
  cnpj = uniqueCnpj();
  recipient = uniqueCnpj();
});
afterAll(() => h.close());

const cStatOf = (o: EventOutcome) => ('cStat' in o ? o.cStat : o.kind);
const send = (xml: string) => h.client.sendEvent({ ...RS55, signedEventXml: xml, idLote: 1 });
const head = (accessKey: string, author = cnpj) => ({
  cOrgao: '43', tpAmb: 2 as const, author: { CNPJ: author }, chNFe: accessKey, dhEvento: brasiliaTime(new Date()), nSeqEvento: 1,
});
const forecast = (accessKey: string, author = cnpj) =>
  buildDeliveryForecastEvent({ ...head(accessKey, author), cOrgaoAutor: '43', verAplic: 'gateway-test', dPrevEntrega: '2026-12-30' }, h.issuer.signingKey).xml;

describe('112150 Atualização da Data de Previsão de Entrega', () => {
  it('registers it on an authorized NF-e (135), then 573 for the same event again', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    const out = await send(forecast(note.accessKey));
    expect(out.kind === 'registered' && out.event).toMatchObject({ cStat: 135, tpEvento: '112150', nSeqEvento: '1' });
    expect(cStatOf(await send(forecast(note.accessKey)))).toBe(573);
  });

  it('493 (MOC D06) for a detEvento its e112150 schema refuses: tpAutor 2, a date that does not exist', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    const det = (tpAutor: string, date: string) =>
      `<descEvento>${DELIVERY_FORECAST_DESC}</descEvento><cOrgaoAutor>43</cOrgaoAutor><tpAutor>${tpAutor}</tpAutor><verAplic>x</verAplic><dPrevEntrega>${date}</dPrevEntrega>`;
    expect(cStatOf(await send(signEvent(head(note.accessKey), '112150', det('2', '2026-12-30'), h.issuer.signingKey).xml))).toBe(493);
    expect(cStatOf(await send(signEvent(head(note.accessKey), '112150', det('1', '2026-02-30'), h.issuer.signingKey).xml))).toBe(493);
    expect(cStatOf(await send(signEvent(head(note.accessKey), '112150', det('1', '2026-12-30'), h.issuer.signingKey).xml))).toBe(135);
  });

  it('574 when someone other than the issuer signs as author', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    expect(cStatOf(await send(forecast(note.accessKey, recipient)))).toBe(574);
    expect(cStatOf(await send(forecast(note.accessKey)))).toBe(135);
  });
});

const item = { nItem: 1, vIBS: 0.1, vCBS: 0.9, quantity: 1, unit: 'UN' };
const issuerEvent = (accessKey: string, tpEvento: '112110' | '112120' | '112130' | '112140', author = cnpj) =>
  buildReformIssuerEvent(
    tpEvento === '112110'
      ? { ...head(accessKey, author), cOrgaoAutor: '43', verAplic: 'gateway-test', tpEvento }
      : { ...head(accessKey, author), cOrgaoAutor: '43', verAplic: 'gateway-test', tpEvento, items: [tpEvento === '112130' ? { ...item, creditReversal: { vIBS: 0.05, vCBS: 0.45 } } : item] },
    h.issuer.signingKey,
  ).xml;

describe.each(['112110', '112120', '112130', '112140'] as const)('%s, an issuer event of NT 2025.002-RTC chapter 8', (tpEvento) => {
  it('registers it (135), then 573 for the same event again; 574 when the recipient signs as author', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    expect(cStatOf(await send(issuerEvent(note.accessKey, tpEvento, recipient)))).toBe(574);
    const out = await send(issuerEvent(note.accessKey, tpEvento));
    expect(out.kind === 'registered' && out.event).toMatchObject({ cStat: 135, tpEvento, nSeqEvento: '1' });
    expect(cStatOf(await send(issuerEvent(note.accessKey, tpEvento)))).toBe(573);
  });
});

describe('493 (MOC D06) for a detEvento its own XSD refuses', () => {
  const base = (tpAutor = '1') => `<cOrgaoAutor>43</cOrgaoAutor><tpAutor>${tpAutor}</tpAutor><verAplic>x</verAplic>`;
  const group = (name: string, q: string, u: string, nItem: string, vIBS = '0.10', credit = '') =>
    `<${name} nItem="${nItem}"><vIBS>${vIBS}</vIBS><vCBS>0.90</vCBS><gControleEstoque><${q}>1.0000</${q}><${u}>UN</${u}>${credit}</gControleEstoque></${name}>`;
  const cases: Array<[string, string, string]> = [
    ['112110', `<descEvento>${REFORM_ISSUER_EVENT_DESC['112110']}</descEvento>${base()}<indQuitacao>0</indQuitacao>`, `<descEvento>${REFORM_ISSUER_EVENT_DESC['112110']}</descEvento>${base()}<indQuitacao>1</indQuitacao>`],
    ['112120', `<descEvento>${REFORM_ISSUER_EVENT_DESC['112120']}</descEvento>${base()}${group('gConsumo', 'qtde', 'unidade', '1')}${group('gConsumo', 'qtde', 'unidade', '1')}`,
      `<descEvento>${REFORM_ISSUER_EVENT_DESC['112120']}</descEvento>${base()}${group('gConsumo', 'qtde', 'unidade', '1')}${group('gConsumo', 'qtde', 'unidade', '2')}`],
    ['112130', `<descEvento>${REFORM_ISSUER_EVENT_DESC['112130']}</descEvento>${base()}${group('gPerecimento', 'qPerecimento', 'uPerecimento', '1')}`,
      `<descEvento>${REFORM_ISSUER_EVENT_DESC['112130']}</descEvento>${base()}${group('gPerecimento', 'qPerecimento', 'uPerecimento', '1', '0.10', '<vIBS>0.05</vIBS><vCBS>0.45</vCBS>')}`],
    ['112140', `<descEvento>${REFORM_ISSUER_EVENT_DESC['112140']}</descEvento>${base('2')}${group('gItemNaoFornecido', 'qNaoFornecida', 'uNaoFornecida', '1', '0.105')}`,
      `<descEvento>${REFORM_ISSUER_EVENT_DESC['112140']}</descEvento>${base()}${group('gItemNaoFornecido', 'qNaoFornecida', 'uNaoFornecida', '1')}`],
  ];
  it.each(cases)('%s: refused (indQuitacao 0, a repeated nItem, no credit to reverse, tpAutor 2 and 3 decimals), then registered once right', async (tpEvento, bad, good) => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    expect(cStatOf(await send(signEvent(head(note.accessKey), tpEvento, bad, h.issuer.signingKey).xml))).toBe(493);
    expect(cStatOf(await send(signEvent(head(note.accessKey), tpEvento, good, h.issuer.signingKey).xml))).toBe(135);
  });
});

describe('110001 Cancelamento de Evento (NT 2025.002-RTC 8.14.3)', () => {
  const cancel = (accessKey: string, o: { nSeq?: number; tpEventoAut?: string; nProt: string; author?: string; cOrgaoAutor?: string }) =>
    buildEventCancellation(
      { ...head(accessKey, o.author), nSeqEvento: o.nSeq ?? 1, cOrgaoAutor: o.cOrgaoAutor ?? '43', verAplic: 'gateway-test', tpEventoAut: o.tpEventoAut ?? '112110', nProtEvento: o.nProt },
      h.issuer.signingKey,
    ).xml;

  it('459 for an event never registered, 1113 another author, 1178 another cOrgaoAutor, 460 another protocol; then 135, and 573 again', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    const registered = await send(issuerEvent(note.accessKey, '112110'));
    const nProt = registered.kind === 'registered' ? registered.event.nProt! : '';
    expect(nProt).toMatch(/^\d{15}$/);
    expect(cStatOf(await send(cancel(note.accessKey, { nProt, nSeq: 2 })))).toBe(459);
    expect(cStatOf(await send(cancel(note.accessKey, { nProt, tpEventoAut: '112120' })))).toBe(459);
    expect(cStatOf(await send(cancel(note.accessKey, { nProt, author: recipient })))).toBe(1113);
    expect(cStatOf(await send(cancel(note.accessKey, { nProt, cOrgaoAutor: '35' })))).toBe(1178);
    const wrong = await send(cancel(note.accessKey, { nProt: '143260000000001' }));
    expect(wrong.kind === 'rejected' && wrong.event).toMatchObject({ cStat: 460, xMotivo: 'Rejeição: Protocolo do Evento difere do cadastrado' });
    const out = await send(cancel(note.accessKey, { nProt }));
    expect(out.kind === 'registered' && out.event).toMatchObject({ cStat: 135, tpEvento: '110001', nSeqEvento: '1' });
    expect(cStatOf(await send(cancel(note.accessKey, { nProt })))).toBe(573);
  });

  it('493 when tpEventoAut is 110001 itself (P23-10, by the schema)', async () => {
    const note = await authorizedNfe55(h, { cnpj, nNF: nNF++, recipient });
    const det = `<descEvento>${EVENT_CANCELLATION_DESC}</descEvento><cOrgaoAutor>43</cOrgaoAutor><verAplic>x</verAplic><tpEventoAut>110001</tpEventoAut><nProtEvento>143260000000001</nProtEvento>`;
    expect(cStatOf(await send(signEvent(head(note.accessKey), '110001', det, h.issuer.signingKey).xml))).toBe(493);
  });
});
