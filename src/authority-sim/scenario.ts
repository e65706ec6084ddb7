import { nfseCode } from '../fiscal/nfse-codes/nfse-codes.js';
import { DPS_SIGNATURE_PROFILES, type DpsSignatureProfileName } from '../fiscal/xml/nfse/sign-dps.js';
import type { NfseOwnScenario } from './nfse/nfse-scenario.js';
import type { OutageAuthorizer, OutageMode } from './outage.js';

/**
 * Faults on demand (docs/decisions.md#the-authority-simulator): chosen per request by `X-Sandbox-Scenario` or queued by a test.
 * Answer-shaping ones (reject, deny, unavailable) reach the service; the transport ones
 * (timeout, lost-response, http-500, malformed) are played by the server.
 */
export type Scenario =
  | { kind: 'reject'; cStat: number }
  | { kind: 'deny'; cStat: 110 | 301 | 302 | 303 }
  | { kind: 'unavailable'; cStat: 108 | 109 }
  | { kind: 'timeout' }
  | { kind: 'lost-response' }
  | { kind: 'http-500' }
  | { kind: 'malformed' }
  /** A synchronous lot answered with a receipt (103): the result is polled with NFeRetAutorizacao4. */
  | { kind: 'async' }
  /** NFeDistribuicaoDFe answers 137 (nothing found) whatever it holds; the hour of waiting starts (docs/fiscal/nfe-model-55.md#distribution-and-throttling). */
  | { kind: 'no-documents' }
  /**
   * `outage:<seconds>[:109|:no-answer][:svc]`: an outage of the request's issuer only (outage.ts), which
   * this request already meets (of the SVCs instead of the state's authorizer with `:svc`); a sandbox user
   * cannot take the authority down for others.
   */
  | { kind: 'outage'; mode: OutageMode; seconds: number; authorizer: OutageAuthorizer }
  /** The NFS-e API's own: throttle (429), refuse-profile (E0714), reject:E0xxx (nfse/nfse-scenario.ts). */
  | NfseOwnScenario;

export const SCENARIO_HEADER = 'x-sandbox-scenario';

/** The longest outage a scenario may start (the admin API allows a day). */
export const MAX_SCENARIO_OUTAGE_SECONDS = 3600;
const OUTAGE_SCENARIO = /^outage:([1-9][0-9]{0,3})(?::(109|no-answer))?(:svc)?$/;

/** Parses `reject:539`, `reject:E0014` (NFS-e), `throttle`, `throttle:5`, `refuse-profile:rsa-sha1-c14n`, `deny`, `deny:301`, `unavailable`, `unavailable:109`, `timeout`, `no-documents`, `outage:60`, `outage:60:109`, `outage:60:no-answer`, `outage:60:svc`, ...; null if unknown. `reject:656` throttles a distribution call. */
export function parseScenario(text: string | undefined | null): Scenario | null {
  if (!text) return null;
  const outage = OUTAGE_SCENARIO.exec(text.trim().toLowerCase());
  if (outage) {
    const seconds = Number(outage[1]);
    const mode = outage[2] === '109' ? 'unavailable:109' : outage[2] === 'no-answer' ? 'no-answer' : 'unavailable';
    return seconds <= MAX_SCENARIO_OUTAGE_SECONDS ? { kind: 'outage', mode, seconds, authorizer: outage[3] ? 'svc' : 'state' } : null;
  }
  const [name, arg] = text.trim().toLowerCase().split(':', 2) as [string, string | undefined];
  switch (name) {
    case 'reject': {
      if (arg && /^e[0-9]{4}$/.test(arg)) return nfseCode(arg) ? { kind: 'reject-nfse', code: arg.toUpperCase() } : null;
      const cStat = Number(arg);
      return Number.isInteger(cStat) && cStat >= 200 && cStat <= 9999 ? { kind: 'reject', cStat } : null;
    }
    case 'deny': {
      const cStat = arg === undefined ? 110 : Number(arg);
      return cStat === 110 || cStat === 301 || cStat === 302 || cStat === 303 ? { kind: 'deny', cStat } : null;
    }
    case 'unavailable':
      return arg === '109' ? { kind: 'unavailable', cStat: 109 } : arg === undefined || arg === '108' ? { kind: 'unavailable', cStat: 108 } : null;
    case 'throttle': {
      // Retry-After in seconds; 2 unless said.
      const seconds = arg === undefined ? 2 : Number(arg);
      return Number.isInteger(seconds) && seconds >= 0 && seconds <= 3600 ? { kind: 'throttle', retryAfterSeconds: seconds } : null;
    }
    case 'refuse-profile':
      return arg !== undefined && arg in DPS_SIGNATURE_PROFILES ? { kind: 'refuse-profile', profile: arg as DpsSignatureProfileName } : null;
    case 'async':
    case 'timeout':
    case 'lost-response':
    case 'http-500':
    case 'malformed':
    case 'no-documents':
      return arg === undefined ? { kind: name } : null;
    default:
      return null;
  }
}
