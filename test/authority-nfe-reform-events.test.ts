import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEvent } from '../src/fiscal/xml/events/event-envelope.js';
import { buildDeliveryForecastEvent, DELIVERY_FORECAST_DESC } from '../src/fiscal/xml/events/index.js';
import type { EventOutcome } from '../src/fiscal/sefaz/outcomes.js';
import { brasiliaTime, uniqueCnpj } from './support/authority-fixtures.js';
import type { AuthorityHarness } from './support/authority-harness.js';
import { authorizedNfe55, RS55, startShiftedHarness } from './support/authority-nfe55.js';

// NT 2025.002-RTC issuer event 112150 at the simulated event reception (docs/fiscal/reform-events.md):
// the NT gives it no codes of its own, so the general MOC rules answer: 493 schema, 574 author, 573 repeat.
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
