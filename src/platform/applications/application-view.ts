import type { ApplicationRow } from '../../infra/storage/repositories/application-repository.js';

/** An application as the API shows it: the key itself is never stored, only its prefix. */
export function presentApplication(row: ApplicationRow) {
  return {
    id: row.id,
    object: 'application' as const,
    name: row.name,
    scopes: row.scopes,
    key_prefix: row.key_prefix,
    created_at: row.created_at.toISOString(),
    rotated_at: row.rotated_at?.toISOString() ?? null,
    previous_key_expires_at: row.previous_key_expires_at?.toISOString() ?? null,
  };
}

export type ApplicationView = ReturnType<typeof presentApplication>;
