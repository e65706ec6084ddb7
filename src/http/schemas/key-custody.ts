import { Type } from 'typebox';
import { Timestamp } from './common.js';
import { StorageMode } from './issuer.js';

const SecretCounts = Type.Object(
  { certificates: Type.Integer({ minimum: 0 }), cscs: Type.Integer({ minimum: 0 }) },
  { description: "The account's certificates and CSCs under this mode" },
);

export const HsmStatus = Type.Object(
  {
    mode: StorageMode,
    master_key_id: Type.String({ description: 'Non-secret id of the master key that wraps new certificate keys and CSCs', examples: ['p11_3f9a0c2e71b4d865'] }),
    provider: Type.Object(
      {
        mode: StorageMode,
        key_id: Type.String({ description: 'Same as `master_key_id`' }),
        label: Type.String({ description: 'Where the master key lives: `<token label>/<key label>` for pkcs11, the KMS key id for aws-kms', examples: ['fiscal-gateway/fiscal-gateway-master'] }),
        cache_seconds: Type.Integer({ minimum: 0, description: 'How long a process keeps a data key the HSM/KMS opened (KEY_CACHE_SECONDS); 0 in envelope mode' }),
      },
      { description: 'The key provider chosen by KEY_PROVIDER' },
    ),
    local_master_key_id: Type.String({ description: "The local master key that wraps the gateway's own secrets (webhook signing secrets, TOTP, mail bodies)" }),
    healthy: Type.Boolean({ description: 'The probe below worked just now' }),
    probe: Type.Object(
      {
        wrap_ms: Type.Union([Type.Number(), Type.Null()], { description: 'Milliseconds to get a fresh data key wrapped by the provider' }),
        unwrap_ms: Type.Union([Type.Number(), Type.Null()], { description: 'Milliseconds to have it opened again (never served from the cache)' }),
        error: Type.Union([Type.String(), Type.Null()], { description: 'Why the probe failed (the provider error name and message), or null' }),
      },
      { description: 'A live round trip through the provider' },
    ),
    secrets: Type.Object({ envelope: SecretCounts, pkcs11: SecretCounts, 'aws-kms': SecretCounts }, { description: 'Count of secrets per storage mode' }),
    checked_at: Timestamp,
  },
  { title: 'HsmStatus' },
);

const SecretName = Type.Enum(['certificate_key', 'certificate', 'csc']);

export const CertificateCustody = Type.Object(
  {
    id: Type.String({ description: 'The issuer id' }),
    object: Type.Literal('certificate_custody'),
    storage_mode: StorageMode,
    master_key_id: Type.String(),
    key_label: Type.String({ description: 'Where the master key lives (see GET /v1/hsm/status)' }),
    changed: Type.Boolean({ description: 'False when everything already was under this provider: a repeated call changes nothing' }),
    secrets: Type.Array(Type.Object({ name: SecretName, storage_mode: StorageMode }), { description: 'Each secret moved and where it is now' }),
    verified_at: Timestamp,
  },
  { title: 'CertificateCustody' },
);

export const BulkCustodyQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Issuers moved in this call (each in its own transaction)' })),
});

export const BulkCustody = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        issuer_id: Type.String(),
        outcome: Type.Enum(['migrated', 'unchanged', 'failed']),
        error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
      }),
    ),
    has_more: Type.Boolean({ description: 'More issuers are still under the local master key: call again' }),
  },
  { title: 'BulkCertificateCustody' },
);
