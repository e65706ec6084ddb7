// POST /v1/nfce/offline read the note's facts with a slicer that also read inside
// comments, while the signature and XSD checks read the real tree. A comment holding NFe 2003 before
// the signed NFe 2002 was stored as 2003. The XML is now parsed once, strictly: comments, processing
// instructions, a DOCTYPE or anything beside the one NFe element is a 422 naming the problem, and every
// fact comes from the tree the signature covers.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { readyIssuer } from './support/nfce-flow.js';
import { signedOfflineNfe } from './support/offline-nfe.js';

let t: TestApp;
let auth: { authorization: string };
let accountId: string;
let issuerId: string;

beforeAll(async () => {
  // A body limit above the XML's own bound, so that bound is what answers.
  t = await createTestApp({ role: 'all', env: { BODY_LIMIT_BYTES: String(8 * 1_048_576) } });
  ({ auth, accountId } = await t.newAccount());
  issuerId = await readyIssuer(t, auth);
});
afterAll(async () => t.runtime.close());

let serie = 300 + randomInt(0, 200);

const signedNfe = (o: { serie: number; number: number }) => signedOfflineNfe(t, { accountId, issuerId }, o);

const post = (xml: string) => t.app.inject({ method: 'POST', url: '/v1/nfce/offline', headers: auth, payload: { xml } });
const stored = async (key: string) => (await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM notes WHERE access_key = $1', [key])).rows[0]!.c;

describe('POST /v1/nfce/offline reads the XML the signature covers, and nothing beside it', () => {
  it('refuses a comment holding another signed NFe before the signed one (422 on xml naming the comment); nothing is stored', async () => {
    const s = serie++;
    const real = await signedNfe({ serie: s, number: 2002 });
    const smuggled = await signedNfe({ serie: s, number: 2003 });
    expect(smuggled.xml).not.toContain('--');
    const res = await post(`<!-- ${smuggled.xml} -->\n${real.xml}`);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details[0]).toMatchObject({ field: 'xml', message: expect.stringMatching(/comment/) });
    expect(await stored(smuggled.key)).toBe(0);
    expect(await stored(real.key)).toBe(0);
  });

  it.each([
    ['a processing instruction before NFe', (x: string) => `<?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet type="text/xsl" href="https://evil.example/x.xsl"?>${x}`, /processing instruction/],
    ['a DOCTYPE', (x: string) => `<!DOCTYPE NFe [<!ELEMENT NFe ANY>]>${x}`, /DOCTYPE/],
    ['an element after NFe', (x: string) => `${x}<NFe/>`, /outside|one NFe|well-formed/],
    ['text after NFe', (x: string) => `${x}2003`, /outside|one NFe|well-formed/],
    ['a comment inside infNFe', (x: string) => x.replace('<nNF>', '<!-- 2003 --><nNF>'), /comment/],
    ['a processing instruction inside infNFe', (x: string) => x.replace('<nNF>', '<?nNF 2003?><nNF>'), /processing instruction/],
    ['a second element with the Id of infNFe', (x: string) => x.replace('<infNFeSupl>', `<infNFeSupl Id="${/<infNFe Id="([^"]+)"/.exec(x)?.[1] ?? /Id="(NFe\d{44})"/.exec(x)![1]}">`), /another element \(infNFeSupl\) with the Id/],
  ])('refuses %s with 422 on xml naming it', async (_name, mutate, named) => {
    const real = await signedNfe({ serie: serie++, number: randomInt(1, 100_000) });
    const res = await post(mutate(real.xml));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details[0]).toMatchObject({ field: 'xml', message: expect.stringMatching(named) });
    expect(await stored(real.key)).toBe(0);
  });

  it('keeps only the NFe element of a clean document (no declaration kept), and serves its XML as a download', async () => {
    const real = await signedNfe({ serie: serie++, number: randomInt(1, 100_000) });
    const res = await post(`<?xml version="1.0" encoding="UTF-8"?>\n${real.xml}\n`);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ access_key: real.key, number: Number(/<nNF>(\d+)<\/nNF>/.exec(real.xml)![1]) });
    const row = await t.db.query<{ signed_xml: string }>('SELECT signed_xml FROM notes WHERE access_key = $1', [real.key]);
    expect(row.rows[0]!.signed_xml).toBe(real.xml);
  });

  it('answers 422 naming xml for a document beyond the size bound, before it is parsed', async () => {
    const real = await signedNfe({ serie: serie++, number: randomInt(1, 100_000) });
    const huge = real.xml.replace('</infNFe>', `<infAdic><infCpl>${'x'.repeat(2_100_000)}</infCpl></infAdic></infNFe>`);
    const res = await post(huge);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details[0]).toMatchObject({ field: 'xml', message: expect.stringMatching(/bytes/) });
  });
});

describe('the same refusals said in Portuguese to a reader who asks for pt-BR (the XML parser\'s reasons included)', () => {
  const postPt = (xml: string) => t.app.inject({ method: 'POST', url: '/v1/nfce/offline', headers: { ...auth, 'accept-language': 'pt-BR' }, payload: { xml } });
  // Words of the English sentences (ours and @xmldom/xmldom's) that no Portuguese one holds.
  const ENGLISH = /\b(the|is|has|not|only|may|inside|outside|element|unclosed|mismatch|expected|found|end of|more than)\b/i;

  it.each([
    ['an unclosed document', () => '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe>', /^não é um XML bem-formado: tag\(s\) não fechada\(s\): NFe, infNFe$/],
    ['mismatched tags', () => '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe></ide></NFe>', /^não é um XML bem-formado: a tag de abertura e a de fechamento não correspondem/],
    ['a repeated attribute', () => '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe Id="a" Id="b"/></NFe>', /^não é um XML bem-formado: atributo Id repetido$/],
    ['text that is no XML', () => 'hello', /^não é um XML bem-formado|^xml não é um elemento NFe/],
    ['a DOCTYPE', () => '<!DOCTYPE NFe [<!ELEMENT NFe ANY>]><NFe/>', /^tem um DOCTYPE; um documento fiscal não tem DOCTYPE/],
    ['a comment inside the root', () => '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><!-- x --><infNFe/></NFe>', /^tem um comentário \(<!-- -->\) dentro de NFe; um documento fiscal não tem comentários/],
    ['a processing instruction before the root', () => '<?xml-stylesheet href="x.xsl"?><NFe xmlns="http://www.portalfiscal.inf.br/nfe"/>', /^tem uma instrução de processamento \(<\?xml-stylesheet \?>\) fora do elemento raiz/],
    ['another root element', () => '<nfeProc xmlns="http://www.portalfiscal.inf.br/nfe"/>', /^não é um elemento NFe no namespace http:\/\/www\.portalfiscal\.inf\.br\/nfe$/],
  ])('%s', async (_name, xml, said) => {
    const res = await postPt(xml());
    expect(res.statusCode, res.body).toBe(422);
    const { message, details } = res.json();
    expect(details[0].field).toBe('xml');
    expect(details[0].message).toMatch(said);
    expect(`${message} ${details[0].message}`).not.toMatch(ENGLISH);
  });
});
