// "no sideways scrolling at 390 px" is promised, yet a rejected NFC-e page was 498 px
// wide on a phone: the rejection's long unbroken words (access keys, protocol numbers, field paths)
// and the timeline's lines did not wrap. Each rejection below is opened at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { motivoWith } from '../../src/authority-sim/cstat-messages.js';
import { emitSettled, readyIssuer, sale } from '../support/nfce-flow.js';
import { bearer, verifiedUser, type Tokens } from '../support/people.js';
import { HAVE_CHROMIUM, PHONE, screenshot, startDashboard, useSession, type DashboardWorld } from '../support/dashboard.js';

describe.skipIf(!HAVE_CHROMIUM)('dashboard: a rejected NFC-e on a phone', () => {
  let w: DashboardWorld;
  let owner: Tokens;
  let issuerId: string;

  beforeAll(async () => {
    w = await startDashboard({ role: 'all' });
    owner = await verifiedUser(w.t.app);
    issuerId = await readyIssuer(w.t, bearer(owner));
  }, 120_000);
  afterAll(async () => w?.close());

  for (const code of ['539', '778', '225']) {
    it(`rejection ${code}: nothing wider than 390 px`, async () => {
      // A point of sale's own references are long unbroken words: the page must wrap them too.
      const ref = `pdv-loja-centro-caixa-03-venda-${code}-${Date.now()}-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789`;
      const items = [{ description: 'REFRIGERANTECOLA2LITROSGARRAFAPETRETORNAVELCAIXACOM6UNIDADES', quantity: 1, unit_price: 9.9, ncm: '22021000', cfop: '5102', unit: 'UN', cst_icms: '102' }];
      const { note } = await emitSettled(w.t, bearer(owner), sale(issuerId, { external_ref: ref, items, payment: { method: 'dinheiro', amount: 9.9 } }), { 'x-sandbox-scenario': `reject:${code}` });
      expect(note.status).toBe('rejected');
      if (code === '539') {
        // A true 539 (the number already authorized under another key: authorization-service.ts) names
        // that key and the receipt in the message, 44 and 15 digits without a space; the scenario's
        // shorter message is given that wording here, in the note and in its timeline.
        const message = motivoWith(539, { chNFe: '35261106157250000116650010000000011000000019', nRec: '351000000012345' });
        await w.t.db.query(`UPDATE notes SET rejection = jsonb_set(rejection, '{message}', to_jsonb($2::text)) WHERE id = $1`, [note.id, message]);
      }
      const page = await w.newPage(PHONE);
      await useSession(page, w.origin, owner);
      await page.goto(`${w.origin}/dashboard/documents/nfce/${note.id}`);
      await page.getByTestId('rejection').waitFor();
      await page.getByTestId('timeline').waitFor();
      const wide = await page.evaluate(`[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 390.5 && e.getClientRects().length).slice(-5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + ' ' + (e.textContent || '').slice(0, 60))`);
      const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      await screenshot(page, `documents-rejected-${code}`);
      expect(width, JSON.stringify(wide)).toBeLessThanOrEqual(390);
      // Nor cut off: a box clipping its overflow keeps scrollWidth at 390 while the words run past the edge.
      expect(wide, 'elements reaching past the right edge').toEqual([]);
      await page.context().close();
    }, 60_000);
  }
});
