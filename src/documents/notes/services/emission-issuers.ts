import type { Db } from '../../../infra/storage/db.js';
import { findIssuerForEmission } from '../../../infra/storage/repositories/issuer-repository.js';
import type { IssuerForEmission } from '../../../kernel/issuer.js';

// The issuer a sale is built from is kept per process once a sale of it was stored: the next sales
// skip the read. Safe because the statement that stores a note checks that the issuer's basis is
// unchanged (insertNotes' issuer guard); when it changed, the sale reads it again and is rebuilt.
const CACHE_MAX = 1_000;
const cachesByDb = new WeakMap<Db, Map<string, IssuerForEmission>>();

export interface EmissionIssuer {
  row: IssuerForEmission;
  /** True when it came from this process's memory rather than from the database just now. */
  cached: boolean;
}

const cacheOf = (db: Db) => {
  let cache = cachesByDb.get(db);
  if (!cache) cachesByDb.set(db, (cache = new Map()));
  return cache;
};
const keyOf = (accountId: string, issuerId: string) => `${accountId}\u0000${issuerId}`;

/** The issuer of this account for a sale; `fresh` skips the memory. Undefined when not this account's. */
export async function emissionIssuer(db: Db, accountId: string, issuerId: string, fresh: boolean): Promise<EmissionIssuer | undefined> {
  const cache = cacheOf(db);
  const key = keyOf(accountId, issuerId);
  const hit = fresh ? undefined : cache.get(key);
  if (hit) return { row: hit, cached: true };
  cache.delete(key);
  const row = await findIssuerForEmission(db, accountId, issuerId);
  return row && { row, cached: false };
}

/** Keeps the issuer a sale was just stored from (without its logo, which emission never reads). */
export function keepEmissionIssuer(db: Db, row: IssuerForEmission): void {
  const cache = cacheOf(db);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(keyOf(row.account_id, row.id), { ...row, danfe: { ...row.danfe, logo: null } });
}
