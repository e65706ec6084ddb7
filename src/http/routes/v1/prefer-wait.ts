const MAX_WAIT_S = 10;

/** RFC 7240 `Prefer: wait=N` (docs/decisions.md#api-conventions: N <= 10 s), or null when the client did not ask to wait. */
export function preferWait(header: string | string[] | undefined): number | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  const m = text ? /(?:^|[,;\s])wait=(\d+)/i.exec(text) : null;
  return m ? Math.min(MAX_WAIT_S, Number(m[1])) : null;
}
