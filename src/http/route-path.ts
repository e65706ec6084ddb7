// The path a request reached, spelled one way: the matched route's pattern with its decoded
// parameters put back, each percent-encoded the same way. `/v1/%6efce`, `/v1/%6Efce` and
// `/v1/nfce?x=1` are all `/v1/nfce`; `/v1/nfce/%6efce_X/cancel` is `/v1/nfce/nfce_X/cancel`.
// Used to scope Idempotency-Keys: scoping by the raw URL let another spelling of
// the same route escape the conflict check.

// find-my-way patterns: `:name`, optionally followed by a regular expression in parentheses, and a
// trailing `*` wildcard (its value is params['*']).
const PARAM = /:([A-Za-z0-9_$-]+)(?:\((?:\\.|[^)])*\))?|\*$/g;

export function canonicalRoutePath(pattern: string | undefined, params: unknown, rawUrl: string): string {
  // No matched route (a 404 never reaches the hooks that ask; kept for safety): the raw path.
  if (!pattern) return rawUrl.split('?')[0]!;
  const values = (params ?? {}) as Record<string, unknown>;
  return pattern.replace(PARAM, (_m, name: string | undefined) => encodeURIComponent(String(values[name ?? '*'] ?? '')));
}
