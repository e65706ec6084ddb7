// Which methods a path answers to, from the routes as they are registered: a request whose path
// exists under other methods is answered 405 with `Allow` (RFC 9110 15.5.6), not 404 (README
// "Errors": method_not_allowed). Patterns only: whether a resource exists is never revealed here.

interface RoutePattern {
  regex: RegExp;
  methods: Set<string>;
}

/** `/v1/issuers/:id/csc` -> a regex of the whole path; `*` matches the rest. */
function patternRegex(url: string): RegExp {
  const body = url
    .split('/')
    .map((seg) => {
      if (seg === '*') return '.*';
      if (seg.startsWith(':')) return '[^/]+';
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${body}/?$`);
}

export class RouteMethods {
  private readonly patterns = new Map<string, RoutePattern>();

  add(url: string, method: string | string[]): void {
    const p = this.patterns.get(url) ?? { regex: patternRegex(url), methods: new Set<string>() };
    for (const m of Array.isArray(method) ? method : [method]) p.methods.add(m.toUpperCase());
    this.patterns.set(url, p);
  }

  /** The methods some route answers at `path` (sorted), empty when no route has this path. */
  allowed(path: string): string[] {
    const out = new Set<string>();
    for (const p of this.patterns.values()) if (p.regex.test(path)) for (const m of p.methods) out.add(m);
    return [...out].sort();
  }
}
