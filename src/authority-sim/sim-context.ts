import type { SigningKey } from '../fiscal/xml/signature/sign.js';
import type { Scenario } from './scenario.js';
import type { SimStore } from './sim-store.js';

export interface SimCounters {
  requests: number;
  /** Authorizations granted (100/150): proof that no sale was authorized twice. */
  authorizations: number;
  rejections: number;
  denials: number;
  events: number;
  voids: number;
  tlsHandshakes: number;
}

/** What one request's handler may use. */
export interface SimContext {
  store: SimStore;
  /** The simulator's key and certificate: it signs protocols as SEFAZ does. */
  signingKey: SigningKey;
  now: () => Date;
  scenario: Scenario | null;
  counters: SimCounters;
}

/** First two-digit value of an element in a message that may be broken (for answering 243/215). */
export function fish(xml: string, name: string, fallback: string): string {
  return new RegExp(`<${name}>([0-9]{1,2})</${name}>`).exec(xml)?.[1] ?? fallback;
}
