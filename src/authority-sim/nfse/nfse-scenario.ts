// The faults (docs/decisions.md#the-authority-simulator) the NFS-e API plays: its own (throttle, refuse-profile, reject with an Anexo
// code) and the transport ones it shares with the SOAP side. scenario.ts parses them all.
import type { DpsSignatureProfileName } from '../../fiscal/xml/nfse/sign-dps.js';

/** Only the NFS-e API understands these. */
export type NfseOwnScenario =
  /** HTTP 429 with Retry-After, nothing processed (docs/fiscal/nfse-national.md#hosts-and-transport). */
  | { kind: 'throttle'; retryAfterSeconds: number }
  /** A DPS signed with this profile is refused with E0714 (whether Sefin refuses any is unknown, docs/fiscal/nfse-national.md#signature). */
  | { kind: 'refuse-profile'; profile: DpsSignatureProfileName }
  /** 400 with this official Anexo I/II code (`reject:E0014`). */
  | { kind: 'reject-nfse'; code: string };

export type NfseScenario = NfseOwnScenario | { kind: 'timeout' | 'lost-response' | 'http-500' | 'malformed' };

const SHARED = new Set(['timeout', 'lost-response', 'http-500', 'malformed', 'throttle', 'refuse-profile', 'reject-nfse']);

/** The scenario as the NFS-e API plays it; SOAP-only ones (numeric reject, deny, async...) play nothing here. */
export function nfseScenarioOf(s: { kind: string } | null): NfseScenario | null {
  return s && SHARED.has(s.kind) ? (s as NfseScenario) : null;
}
