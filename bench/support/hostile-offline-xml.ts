// XML that says one thing beside the signed NFe that says another. The signed NFe
// is the gateway's own (the sale JSON form of POST /v1/nfce/offline, then its XML), so the only
// difference between the attack and a valid upload is what was put beside or inside it.
import { randomInt } from 'node:crypto';
import { generateCnf } from '../../src/fiscal/layout/cnf.js';
import { sale } from '../../test/support/nfce-flow.js';
import type { HostileCase, Outcome } from './hostile-cases.js';
import type { Answer, HostileWorld } from './hostile-world.js';

const spTime = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000 - 3 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '-03:00');

/** A signed offline NFe of a fresh issuer of the world's account (number `number`, a series of its own). */
async function signedNfe(w: HostileWorld, ip: string, number: number): Promise<{ xml: string; issuerId: string }> {
  const issuerId = await w.readyIssuer(ip);
  const at = new Date(Date.now() - 10 * 60_000);
  const offline = {
    serie: randomInt(300, 800), number, cnf: generateCnf(number), issued_at: spTime(at),
    contingency_at: spTime(new Date(at.getTime() - 5 * 60_000)), reason: 'Sem conexao com a internet no caixa 3',
  };
  const made = await w.call(w.gateways[0]!, 'POST', '/v1/nfce/offline', { body: { ...sale(issuerId), offline }, ip });
  if (made.status !== 201) throw new Error(`offline sale: ${made.status} ${JSON.stringify(made.json).slice(0, 200)}`);
  const res = await fetch(`http://127.0.0.1:${w.port(w.gateways[0]!)}/v1/nfce/${made.json.id}/xml`, { headers: { authorization: `Bearer ${w.caseKey || w.ownerKey}`, 'x-forwarded-for': ip } });
  const text = await res.text();
  const nfe = /<NFe xmlns="http:\/\/www\.portalfiscal\.inf\.br\/nfe">[\s\S]*<\/NFe>/.exec(text)?.[0];
  if (!nfe) throw new Error(`its XML: ${res.status} ${text.slice(0, 200)}`);
  return { xml: nfe, issuerId };
}

function problemsOf(a: Answer, named: RegExp): string[] {
  const p: string[] = [];
  if (a.status !== 422) p.push(`status ${a.status}, expected 422`);
  const d = a.json.details?.[0] as { field?: string; message?: string } | undefined;
  if (d?.field !== 'xml' || !named.test(String(d?.message))) p.push(`detail ${JSON.stringify(d ?? a.json).slice(0, 200)}, expected xml ${named}`);
  return p;
}

function variant(name: string, named: RegExp, mutate: (nfe: string) => string): HostileCase {
  return {
    name: `offline XML: ${name}`,
    expected: '422 validation_error on xml naming it; nothing stored',
    async run(w): Promise<Outcome> {
      const ip = w.newIp();
      const { xml } = await signedNfe(w, ip, 2002);
      const a = await w.call(w.gateways.at(-1)!, 'POST', '/v1/nfce/offline', { body: { xml: mutate(xml) }, ip });
      return { got: `${a.status} ${a.json.error ?? ''} ${String(a.json.details?.[0]?.message ?? '').slice(0, 100)}`, problems: problemsOf(a, named) };
    },
  };
}

// The NFe 2003 a slicer would read: the signed 2002 with its number and key changed (inside a comment).
const as2003 = (nfe: string) => nfe.replace(/<nNF>\d+<\/nNF>/, '<nNF>2003</nNF>').replace(/Id="NFe(\d{25})\d{9}/, (_m, head: string) => `Id="NFe${head}000002003`);

export const OFFLINE_XML_CASES: HostileCase[] = [
  variant('a comment holding NFe 2003 before the signed NFe 2002', /comment/, (nfe) => `<!-- ${as2003(nfe)} -->\n${nfe}`),
  variant('an xml-stylesheet processing instruction before NFe', /processing instruction/, (nfe) => `<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="data:,x"?>${nfe}`),
  variant('a DOCTYPE with an entity expansion (billion laughs)', /DOCTYPE/, (nfe) => `<!DOCTYPE NFe [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>${nfe.replace('<xJust>', '<xJust>&c;')}`),
  variant('a second NFe after the signed one', /top|outside|well-formed/, (nfe) => `${nfe}${as2003(nfe)}`),
  {
    name: 'offline XML: 1 MB of elements nested 250,000 deep, never closed',
    expected: '422 validation_error on xml (or 413 past the body limit), never a 5xx',
    async run(w) {
      const xml = '<NFe xmlns="http://www.portalfiscal.inf.br/nfe">' + '<a>'.repeat(250_000);
      const a = await w.call(w.gateways[0]!, 'POST', '/v1/nfce/offline', { body: { xml }, ip: w.newIp() });
      const problems = a.status === 413 || (a.status === 422 && a.json.details?.[0]?.field === 'xml') ? [] : [`${a.status} ${JSON.stringify(a.json).slice(0, 160)}`];
      return { got: `${a.status} ${a.json.error ?? ''} ${String(a.json.details?.[0]?.message ?? '').slice(0, 80)}`, problems };
    },
  },
];
