// docs/guides/api.md#contract-versioning: an operation is deprecated at least 90 days before it goes, said in three places:
// the OpenAPI document (`deprecated: true`, with the sunset and the replacement in its description),
// every answer of the operation (`Deprecation`, RFC 9745; `Sunset`, RFC 8594; `Link` to the changelog
// with rel="deprecation"), and CHANGELOG.md. A route says so with `config.deprecation`.

export interface RouteDeprecation {
  /** The day the deprecation was announced (YYYY-MM-DD, UTC). */
  since: string;
  /** The day the operation stops answering (YYYY-MM-DD, UTC): at least 90 days after `since`. */
  sunset: string;
  /** What to call instead, e.g. "GET /v1/issuers/:id/series". */
  replacement: string;
}

/** docs/guides/api.md#contract-versioning: the notice period. */
export const DEPRECATION_NOTICE_DAYS = 90;
/**
 * Where the deprecations are announced (Link rel="deprecation", RFC 9745 section 3): the gateway
 * serves its own CHANGELOG.md there (http/routes/changelog.ts); relative, so it resolves against the
 * gateway the client called (RFC 8288 section 3.2).
 */
export const CHANGELOG_PATH = '/changelog.md';

const DAY_MS = 86_400_000;
const day = (iso: string): Date => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso) || Number.isNaN(Date.parse(`${iso}T00:00:00Z`))) throw new RangeError(`not a YYYY-MM-DD date: ${iso}`);
  return new Date(`${iso}T00:00:00Z`);
};

/** Refuses at start-up a deprecation whose sunset leaves less than the promised notice. */
export function checkDeprecation(route: string, d: RouteDeprecation): void {
  const days = (day(d.sunset).getTime() - day(d.since).getTime()) / DAY_MS;
  if (days < DEPRECATION_NOTICE_DAYS) throw new RangeError(`${route}: sunset ${d.sunset} is ${days} days after ${d.since}; SPEC 9 promises ${DEPRECATION_NOTICE_DAYS}`);
}

/** The three headers of every answer of a deprecated operation. */
export function deprecationHeaders(d: RouteDeprecation): Record<string, string> {
  return {
    // RFC 9745 section 2.1: an Item Structured Header, a Date: "@" + seconds since the epoch.
    deprecation: `@${Math.floor(day(d.since).getTime() / 1000)}`,
    // RFC 8594 section 3: an HTTP-date.
    sunset: day(d.sunset).toUTCString(),
    link: `<${CHANGELOG_PATH}>; rel="deprecation"; type="text/markdown"`,
  };
}

/** The operation's OpenAPI entry: `deprecated: true` and the dates and replacement in its description. */
export function markDeprecated(schema: { deprecated?: boolean; description?: string }, d: RouteDeprecation): void {
  schema.deprecated = true;
  const note = `**Deprecated** since ${d.since}; stops answering on ${d.sunset}. Use ${d.replacement} instead (CHANGELOG.md).`;
  schema.description = schema.description ? `${note}\n\n${schema.description}` : note;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation is deprecated (src/http/deprecation.ts): OpenAPI, headers and CHANGELOG.md say so. */
    deprecation?: RouteDeprecation;
  }
}
