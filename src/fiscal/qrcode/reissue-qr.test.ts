import { describe, expect, it } from 'vitest';
import { buildNfceQrCode, nfceUrls, reissueOfflineQrV2, verifyNfceQrCode } from './index.js';

// A contingency NFC-e whose CSC was revoked before transmission is sent again with its QR code
// signed by the current CSC; the authority's own check (verifyNfceQrCode, the simulator's) decides.
describe('reissueOfflineQrV2', () => {
  const note = {
    accessKey: '35261106157250000116650010000000071000000079', tpAmb: 1 as const, tpEmis: 9 as const, uf: 'SP',
    dhEmi: '2026-11-24T10:15:00-03:00', vNF: '43.58', digestValue: 'k3kQGZqXNbbWx3u0kD5rYVj0zMc=',
  };
  const oldCsc = { id: '000001', token: 'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6' };
  const newCsc = { id: '000002', token: 'Z9Y8X7W6V5U4T3S2R1Q0P9O8N7M6L5K4' };
  const ctx = (cscs: Record<string, { token: string; revoked?: boolean }>) => ({
    expectedBaseUrl: nfceUrls('SP', 1).qrCodeBaseUrl, ...note, cscLookup: (id: string) => cscs[id],
  });

  it('signs the same offline QR code with the new CSC: accepted where the old one is revoked', () => {
    const stale = buildNfceQrCode({ ...note, version: 2, csc: oldCsc });
    const revoked = { '1': { token: oldCsc.token, revoked: true }, '2': { token: newCsc.token } };
    expect(verifyNfceQrCode(stale, ctx(revoked))?.cStat).toBe(463);
    const fresh = reissueOfflineQrV2(stale, newCsc)!;
    expect(fresh).toBe(buildNfceQrCode({ ...note, version: 2, csc: newCsc }));
    expect(verifyNfceQrCode(fresh, ctx(revoked))).toBeNull();
    // The key, day, total and digest are untouched: only idCSC and the hash change.
    expect(fresh.split('|').slice(0, 6)).toEqual(stale.split('|').slice(0, 6));
  });

  it('leaves alone what is not a v2 offline QR code', () => {
    expect(reissueOfflineQrV2(buildNfceQrCode({ ...note, tpEmis: 1, version: 2, csc: oldCsc }), newCsc)).toBeNull();
    expect(reissueOfflineQrV2('https://example.invalid/qr?p=garbage', newCsc)).toBeNull();
  });
});
