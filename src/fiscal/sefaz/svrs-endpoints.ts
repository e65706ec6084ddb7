// SVRS's own event reception: NT 2023.005 (failed delivery, 110192/110193; docs/fiscal/delivery-events.md) names it as the
// only web service of those events, whatever the issuer's state. It is the recepcaoEvento of every state SVRS
// authorizes for (the endpoint table, webservices/sefaz_endpoints_v4_derived.json): read from there, not written here.
import { allUfs, resolveEndpoint, type Endpoint, type EndpointOverride, type TpAmb } from './endpoints.js';

export function resolveSvrsEventEndpoint(tpAmb: TpAmb, override?: EndpointOverride): Endpoint {
  for (const uf of allUfs()) {
    const endpoint = resolveEndpoint(uf, 55, tpAmb, 'recepcaoEvento', override);
    if (endpoint.authorizer === 'SVRS') return endpoint;
  }
  throw new RangeError(`no SVRS event reception for tpAmb ${tpAmb}`);
}
