// Whatever the XML's texts hold (any Unicode, control characters, markup, words wider than the roll),
// the ESC/POS stream decodes cleanly with no line wider than the roll, the QR payload untouched and a
// cut per copy, and the HTML page holds no tag but its own.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { danfeInputFromXml, type DanfeInput } from '../src/danfe/index.js';
import { renderDanfeEscpos } from '../src/danfe/escpos/index.js';
import { renderDanfeHtml } from '../src/danfe/html/index.js';
import { decodeEscpos } from './support/escpos-decoder.js';

const SAMPLES = [
  'nfce_v3.10_PR_homologacao_autorizada_NFCeHom2.xml',
  'nfce_v4.00_BA_homologacao_offline_tpEmis9_qrv2_assinada_sem_protocolo.xml',
].map((f) => danfeInputFromXml(readFileSync(`test/fixtures/samples/nfce/${f}`, 'utf8')));

const textArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.constantFrom('<script>window.x=1</script>', '"\'><img src=x onerror=alert(1)>', 'Açaí “ótimo” — €', 'A'.repeat(130), '\x1b@\x1dV\x00', '&amp; &#60;'),
);

const inputArb = fc.record({
  sample: fc.constantFrom(...SAMPLES),
  name: textArb,
  tradeName: textArb,
  street: textArb,
  items: fc.array(fc.record({ code: textArb, description: textArb }), { minLength: 1, maxLength: 12 }),
  consumer: textArb,
  messages: fc.tuple(textArb, textArb, textArb),
});

type Generated = typeof inputArb extends fc.Arbitrary<infer T> ? T : never;

function build(g: Generated): DanfeInput {
  const base = g.sample;
  const item = base.items[0]!;
  return {
    ...base,
    issuer: { ...base.issuer, name: g.name, tradeName: g.tradeName, address: { ...base.issuer.address, street: g.street } },
    items: g.items.map((it, i) => ({ ...item, number: i + 1, code: it.code, description: it.description })),
    consumer: { name: g.consumer, document: { kind: 'foreign', id: g.consumer.slice(0, 20) } },
    fiscoMessage: g.messages[0],
    taxpayerMessage: g.messages[1],
    settings: { footerText: g.messages[2] },
  };
}

const OWN_TAGS = new Set(['!DOCTYPE', 'html', 'head', 'meta', 'title', 'style', 'body', 'section', 'p', 'hr', 'svg', 'path']);

describe('text receipts of any text', () => {
  it('ESC/POS: decodes command by command, no line over 48/32 columns, the QR payload exact, a cut per copy', () => {
    fc.assert(
      fc.property(inputArb, fc.constantFrom(80 as const, 58 as const), (g, width) => {
        const input = build(g);
        const stream = decodeEscpos(renderDanfeEscpos(input, { width }));
        const copies = input.tpEmis === 9 && !input.authorization ? 2 : 1;
        expect(stream.endsWithCut).toBe(true);
        expect(stream.copies).toHaveLength(copies);
        expect(stream.commands.filter((c) => c.startsWith('GS V'))).toHaveLength(copies);
        for (const copy of stream.copies) {
          expect(copy.lines.filter((l) => l.text.length > (width === 80 ? 48 : 32))).toEqual([]);
          expect(copy.qr.map((q) => q.payload)).toEqual([input.qrCode]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('HTML: no tag but the page\'s own, whatever the texts hold', async () => {
    await fc.assert(
      fc.asyncProperty(inputArb, async (g) => {
        const html = await renderDanfeHtml(build(g), { width: 58 });
        const tags = [...html.matchAll(/<\/?([!A-Za-z][A-Za-z0-9]*)/g)].map((m) => m[1]!);
        expect(tags.filter((t) => !OWN_TAGS.has(t))).toEqual([]);
        expect(html.match(/<script/gi)).toBeNull();
      }),
      { numRuns: 60 },
    );
  });
});
