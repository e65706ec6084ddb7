// The relying party settings of passkeys: defaults follow the dashboard, and an
// origin that is not on the RP ID stops the start (WebAuthn L3 §5.1.3: browsers would refuse it anyway).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('WEBAUTHN_* configuration', () => {
  it('defaults to the dashboard: its hostname as RP ID, its origins', () => {
    const c = loadConfig({ DASHBOARD_URL: 'https://dashboard.example.com/app', PUBLIC_BASE_URL: 'https://api.example.com' }).people.webauthn;
    expect(c).toEqual({ rpId: 'dashboard.example.com', rpName: 'Fiscal gateway', origins: ['https://dashboard.example.com', 'https://api.example.com'] });
  });

  it('takes a parent domain as RP ID and origins on it', () => {
    const c = loadConfig({ WEBAUTHN_RP_ID: 'Example.com', WEBAUTHN_RP_NAME: 'Padaria', WEBAUTHN_ORIGINS: 'https://dashboard.example.com, https://example.com/' }).people.webauthn;
    expect(c).toEqual({ rpId: 'example.com', rpName: 'Padaria', origins: ['https://dashboard.example.com', 'https://example.com'] });
  });

  it('refuses an origin off the RP ID, a malformed origin and an overlong name', () => {
    expect(() => loadConfig({ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGINS: 'https://evil-example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGINS: 'not a url' })).toThrow(/WEBAUTHN_ORIGINS/);
    expect(() => loadConfig({ WEBAUTHN_RP_NAME: 'x'.repeat(65) })).toThrow(/WEBAUTHN_RP_NAME/);
    expect(() => loadConfig({ WEBAUTHN_RP_ID: 'exa mple.com' })).toThrow(/WEBAUTHN_RP_ID/);
  });
});
