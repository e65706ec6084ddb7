import { describe, expect, it } from 'vitest';
import { canonicalRoutePath } from './route-path.js';

describe('canonicalRoutePath', () => {
  it('spells a route one way whatever the URL looked like', () => {
    expect(canonicalRoutePath('/v1/nfce', {}, '/v1/%6Efce?x=1')).toBe('/v1/nfce');
    expect(canonicalRoutePath('/v1/nfce/:id/cancel', { id: 'nfce_ABC' }, '/v1/nfce/%6efce_ABC/cancel')).toBe('/v1/nfce/nfce_ABC/cancel');
    expect(canonicalRoutePath('/v1/webhooks/:id/deliveries/:deliveryId/replay', { id: 'whk_1', deliveryId: 'dlv_2' }, '')).toBe(
      '/v1/webhooks/whk_1/deliveries/dlv_2/replay',
    );
  });

  it('keeps parameters apart: a decoded slash or question mark cannot imitate another path', () => {
    expect(canonicalRoutePath('/v1/nfce/:id/cancel', { id: 'a/b?c' }, '')).toBe('/v1/nfce/a%2Fb%3Fc/cancel');
    expect(canonicalRoutePath('/files/*', { '*': 'x/y' }, '')).toBe('/files/x%2Fy');
    expect(canonicalRoutePath('/v1/n/:id(^\\d+)', { id: '12' }, '')).toBe('/v1/n/12');
  });

  it('falls back to the raw path without its query when no route matched', () => {
    expect(canonicalRoutePath(undefined, {}, '/nowhere?x=1')).toBe('/nowhere');
  });
});
