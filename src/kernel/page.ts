/** docs/decisions.md#api-conventions lists: a page of rows. Fetches one more row than asked to learn whether another page follows. */
export function page<T>(rows: T[], limit: number): { data: T[]; has_more: boolean } {
  return { data: rows.slice(0, limit), has_more: rows.length > limit };
}
