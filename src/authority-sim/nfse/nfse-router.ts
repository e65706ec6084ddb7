// Sefin Nacional (basePath /SefinNacional) and ADN contribuintes (/contribuintes) on the simulator's
// HTTPS port, routed by path (docs/fiscal/nfse-national.md#hosts-and-transport, docs/fiscal/nfse-national.md#calls): the paths and methods of the official Swagger.
import { distributeDfe, eventsOfKey } from './adn-distribution.js';
import { issueNfse, type IssueFaults } from './issue-nfse.js';
import type { JsonReply, NfseCaller, NfseSimContext } from './nfse-context.js';
import { fetchEvent, fetchNfse, lookupDps } from './nfse-queries.js';
import { registerEvent } from './register-event.js';

export interface NfseRequest {
  method: string;
  url: URL;
  /** The body (POST only). */
  body: string;
}

const KEY = '([0-9]{50})';
const ROUTES: ReadonlyArray<{ method: string; path: RegExp; run: (m: string[], r: NfseRequest, ctx: NfseSimContext, caller: NfseCaller, faults: IssueFaults) => Promise<JsonReply> }> = [
  { method: 'POST', path: /^\/SefinNacional\/nfse$/, run: (_m, r, ctx, caller, faults) => issueNfse(r.body, ctx, caller, faults) },
  { method: 'GET', path: /^\/SefinNacional\/dps\/([^/]+)$/, run: (m, _r, ctx, caller) => lookupDps(m[1]!, ctx, caller, false) },
  { method: 'HEAD', path: /^\/SefinNacional\/dps\/([^/]+)$/, run: (m, _r, ctx, caller) => lookupDps(m[1]!, ctx, caller, true) },
  { method: 'GET', path: /^\/SefinNacional\/nfse\/([^/]+)$/, run: (m, _r, ctx, caller) => fetchNfse(m[1]!, ctx, caller) },
  { method: 'POST', path: new RegExp(`^/SefinNacional/nfse/${KEY}/eventos$`), run: (m, r, ctx, _c, faults) => registerEvent(m[1]!, r.body, ctx, faults.rejectCode) },
  { method: 'GET', path: new RegExp(`^/SefinNacional/nfse/${KEY}/eventos/([^/]+)/([^/]+)$`), run: (m, _r, ctx, caller) => fetchEvent(m[1]!, m[2]!, m[3]!, ctx, caller) },
  { method: 'GET', path: /^\/contribuintes\/DFe\/([^/]+)$/, run: (m, r, ctx, caller) => distributeDfe(m[1]!, r.url.searchParams, ctx, caller) },
  { method: 'GET', path: /^\/contribuintes\/NFSe\/([^/]+)\/Eventos$/, run: (m, _r, ctx, caller) => eventsOfKey(m[1]!, ctx, caller) },
];

export function routeNfse(r: NfseRequest, ctx: NfseSimContext, caller: NfseCaller, faults: IssueFaults): Promise<JsonReply> {
  let pathFound = false;
  for (const route of ROUTES) {
    const m = route.path.exec(r.url.pathname);
    if (!m) continue;
    pathFound = true;
    if (route.method === r.method) return route.run([...m], r, ctx, caller, faults);
  }
  return Promise.resolve(
    pathFound
      ? { status: 405, body: { mensagem: `${r.method} is not served at ${r.url.pathname}` } }
      : { status: 404, body: { mensagem: `no NFS-e service at ${r.url.pathname}` } },
  );
}
