// Resource names as the audit log spells them (singular): `/v1/issuers/:id` -> `issuer`.
const SINGULAR: Record<string, string> = {
  issuers: 'issuer',
  applications: 'application',
  webhooks: 'webhook',
  deliveries: 'delivery',
  notifications: 'notification',
  settings: 'settings',
};
const METHOD_VERB: Record<string, string> = { POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' };

/**
 * `nfce.create`, `nfce.cancel`, `issuer.update`, `issuer.certificate.create`, `webhook.delivery.replay`:
 * the static segments of the route pattern; a trailing static segment after an id on a POST is the
 * action itself (`/v1/nfce/:id/cancel`), otherwise the method names it.
 */
export function auditAction(method: string, routePattern: string): string {
  const segments = routePattern.split('/').filter((s) => s && s !== 'v1');
  const parts: string[] = [];
  let afterParam = false;
  let verb: string | null = null;
  segments.forEach((s, i) => {
    if (s.startsWith(':')) {
      afterParam = true;
      return;
    }
    const name = (SINGULAR[s] ?? s).replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '');
    const last = i === segments.length - 1;
    if (last && afterParam && method === 'POST' && !['certificate', 'csc', 'inutilization'].includes(s)) verb = name;
    else parts.push(name);
    afterParam = false;
  });
  return [...parts, verb ?? METHOD_VERB[method] ?? method.toLowerCase()].join('.');
}

/** The resource the call acted on: the first id in the path, else the id of the created record. */
export function auditTarget(params: unknown, responseId: string | null): string | null {
  if (params && typeof params === 'object') {
    const p = params as Record<string, unknown>;
    // A NUL (PostgreSQL text cannot hold it) would poison the audit writer's batch: never stored.
    if (typeof p.id === 'string') return p.id.split('\u0000').join('\ufffd');
  }
  return responseId;
}
