import type { Config } from '../../config.js';
import type { AuthorityAccess } from '../../fiscal/sefaz/authority-access.js';
import { callerParts } from '../../fiscal/sefaz/breaker-key.js';
import { AuthorityBreaker } from '../../fiscal/sefaz/authority-breaker.js';
import type { EndpointOverride } from '../../fiscal/sefaz/endpoints.js';
import type { Clock } from '../../kernel/clock.js';
import { loadIssuerSigningMaterial } from '../issuers/issuer-signing-material.js';
import type { SecretBox } from '../../infra/security/secret-box.js';
import type { Db } from '../../infra/storage/db.js';
import { breakerRepository } from './storage/breaker-repository.js';
import { issuerWithCertificate } from '../../infra/storage/repositories/issuer-secret-repository.js';

export interface BreakerPortOptions {
  config: Config;
  db: Db;
  secrets: SecretBox;
  clock: Clock;
  endpointOverride?: EndpointOverride | undefined;
  /** The process's authority access, once built (it records into this breaker, so it comes after). */
  authority: () => AuthorityAccess;
  onError?: (err: unknown) => void;
}

/**
 * The breaker port (Ports.breaker): state in PostgreSQL (every deployment has it; PGlite alone is
 * one process anyway), probes sent with the certificate of a failed call - the one this process
 * holds, or, in a process that never used it (another worker, after a restart), the stored one of an
 * issuer that has it.
 */
export function openAuthorityBreaker(o: BreakerPortOptions): AuthorityBreaker {
  const { config } = o;
  return new AuthorityBreaker({
    store: breakerRepository(o.db),
    clock: o.clock,
    settings: {
      failures: config.authorityBreaker.failures,
      windowMs: config.authorityBreaker.windowMs,
      cooldownMs: config.authorityBreaker.cooldownMs,
      maxCooldownMs: config.authorityBreaker.maxCooldownMs,
      // A probe never waits longer than its answer bound; past that another process may try.
      probeLeaseMs: config.authorityConnectTimeoutMs + probeTimeoutMs(config) + 5_000,
    },
    endpointOverride: o.endpointOverride,
    probeTimeoutMs: probeTimeoutMs(config),
    enabled: config.authorityBreaker.failures > 0,
    ...(o.onError ? { onError: o.onError } : {}),
    async probeClient(caller) {
      if (!caller) return null;
      const held = o.authority().rawClientByFingerprint(caller);
      if (held) return held;
      // In the sandbox the caller names its account too: the probe asks as that account (the
      // simulator's outages are per account), with that account's issuer's certificate.
      const { fingerprint, accountId } = callerParts(caller);
      const issuer = await issuerWithCertificate(o.db, fingerprint, accountId);
      if (!issuer) return null;
      const material = await loadIssuerSigningMaterial(o.db, o.secrets, issuer.account_id, issuer.issuer_id);
      return material?.certificate ? o.authority().rawClientFor(material.certificate, accountId) : null;
    },
  });
}

// A status answer is small and quick; 10 s (or the configured bound, if shorter) tells a stopped service.
const probeTimeoutMs = (config: Config) => Math.min(config.authorityResponseTimeoutMs, 10_000);
