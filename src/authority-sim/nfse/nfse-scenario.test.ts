import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario.js';
import { nfseScenarioOf } from './nfse-scenario.js';

describe('NFS-e scenarios', () => {
  it('parses the NFS-e kinds beside the SEFAZ ones', () => {
    expect(parseScenario('reject:E0014')).toEqual({ kind: 'reject-nfse', code: 'E0014' });
    expect(parseScenario('reject:e1989')).toEqual({ kind: 'reject-nfse', code: 'E1989' });
    expect(parseScenario('reject:E9999')).toBeNull(); // not an Anexo I/II code
    expect(parseScenario('reject:539')).toEqual({ kind: 'reject', cStat: 539 });
    expect(parseScenario('throttle')).toEqual({ kind: 'throttle', retryAfterSeconds: 2 });
    expect(parseScenario('throttle:30')).toEqual({ kind: 'throttle', retryAfterSeconds: 30 });
    expect(parseScenario('throttle:soon')).toBeNull();
    expect(parseScenario('refuse-profile:rsa-sha256-exc-c14n')).toEqual({ kind: 'refuse-profile', profile: 'rsa-sha256-exc-c14n' });
    expect(parseScenario('refuse-profile:rsa-md5')).toBeNull();
  });

  it('plays the transport and NFS-e kinds on the NFS-e API, nothing of the SOAP-only ones', () => {
    expect(nfseScenarioOf(parseScenario('lost-response'))).toEqual({ kind: 'lost-response' });
    expect(nfseScenarioOf(parseScenario('throttle'))).toEqual({ kind: 'throttle', retryAfterSeconds: 2 });
    expect(nfseScenarioOf(parseScenario('deny'))).toBeNull();
    expect(nfseScenarioOf(parseScenario('reject:539'))).toBeNull();
  });
});
