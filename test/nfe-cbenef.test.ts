import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { xmllint } from './support/xml-tools.js';

// docs/fiscal/cbenef.md: items[].benefit_code is written as prod/cBenef where leiauteNFe_v4.00.xsd puts it.
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

const withCodes = (a: string, b?: string) => {
  const base = invoice(issuerId);
  return { ...base, items: [{ ...base.items[0], benefit_code: a }, b === undefined ? base.items[1] : { ...base.items[1], benefit_code: b }] };
};

describe('items[].benefit_code (cBenef)', () => {
  it('is written after NCM (and CEST), before CFOP; the nfeProc passes the XSD', async () => {
    const { note } = await emitNfeSettled(t, auth, withCodes('SEM CBENEF', 'RS052001'));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/xml`, headers: auth })).body;
    expect(xml).toContain('<NCM>09012100</NCM><cBenef>SEM CBENEF</cBenef><CFOP>5102</CFOP>');
    expect(xml).toContain('<NCM>17019900</NCM><cBenef>RS052001</cBenef><CFOP>5102</CFOP>');
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
  });

  it('422 naming the item field for a code the XSD refuses (not 8 or 10 characters, a blank inside)', async () => {
    for (const bad of ['RS05200', 'RS 052001']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: auth, payload: withCodes(bad) });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain('items[0].benefit_code');
    }
  });
});
