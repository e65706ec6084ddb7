import type { Config } from '../../config.js';
import type { AuthorityAccess } from '../../fiscal/sefaz/authority-access.js';
import type { AuthorityBreaker } from '../../fiscal/sefaz/authority-breaker.js';
import type { Clock } from '../../kernel/clock.js';
import type { NotificationBus } from '../notifications/notification-bus.js';
import type { SecretBox } from '../../infra/security/secret-box.js';
import type { Db } from '../../infra/storage/db.js';

/**
 * The adapters a use case can be handed (docs/decisions.md#the-way-a-sale-travels: adapters sit at the edges behind small
 * interfaces). Each use case names the few it uses, as `Pick<Ports, 'db' | 'clock'>`, so a test or
 * another process hands it exactly those; the composition root (runtime.ts) builds the whole set.
 */
export interface Ports {
  config: Config;
  db: Db;
  clock: Clock;
  /** Envelope encryption of certificates, CSCs and webhook secrets. */
  secrets: SecretBox;
  /** SOAP clients to the authority (or the simulator in the sandbox). */
  authority: AuthorityAccess;
  /**
   * Circuit breakers of the authority endpoints, shared by every process through PostgreSQL:
   * `isOpen(target)` says a sale should go to contingency at once (fiscal/sefaz/authority-breaker.ts).
   */
  breaker: AuthorityBreaker;
  /** Wakes this process's job runner when work was just queued (no-op in API-only processes). */
  wakeWorker: () => void;
  /** Wakes notification streams in every process (Redis, PostgreSQL LISTEN/NOTIFY or in-process). */
  notifications: NotificationBus;
}
