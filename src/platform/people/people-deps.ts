import type { Ports } from '../ports/ports.js';

/** What the sign-in use cases are handed: storage, time, settings and the secret box (TOTP seeds). */
export type PeopleDeps = Pick<Ports, 'db' | 'clock' | 'config' | 'secrets'>;

/** Who is asking, for sessions and the audit log. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  requestId: string;
  /** The browser's `__Host-device` cookie, if it sent one (device-cookie.ts). */
  deviceToken?: string | null;
}
