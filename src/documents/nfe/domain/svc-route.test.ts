import { describe, expect, it } from 'vitest';
import { nfeRoute, nfeServiceAuthorizer, svcOf } from './svc-route.js';

// Which SVC serves a state: docs/fiscal/svc.md (SVC-RS for AM, BA, GO, MA, MS, MT, PE, PR).
describe('nfeRoute', () => {
  it('a new note goes to the state while its breaker is closed', () => {
    expect(nfeRoute({ uf: 'SP', stateBreakerOpen: false })).toEqual({ action: 'send', to: 'state', tpEmis: 1 });
  });
  it('a new note goes to SVC-AN (tpEmis 6) for SP and SVC-RS (tpEmis 7) for PR when the breaker is open', () => {
    expect(nfeRoute({ uf: 'SP', stateBreakerOpen: true })).toEqual({ action: 'send', to: 'SVC-AN', tpEmis: 6 });
    expect(nfeRoute({ uf: 'PR', stateBreakerOpen: true })).toEqual({ action: 'send', to: 'SVC-RS', tpEmis: 7 });
    expect(svcOf('BA')).toBe('SVC-RS');
    expect(svcOf('MG')).toBe('SVC-AN');
  });
  it('a note with an unknown outcome at the state is consulted there, never re-sent to SVC', () => {
    expect(nfeRoute({ uf: 'SP', stateBreakerOpen: true, previous: { outcome: 'unknown', tpEmis: 1 } }))
      .toEqual({ action: 'consult', at: 'state', tpEmis: 1 });
  });
  it('a note with an unknown outcome at SVC is consulted at SVC even after the breaker closed', () => {
    expect(nfeRoute({ uf: 'PR', stateBreakerOpen: false, previous: { outcome: 'unknown', tpEmis: 7 } }))
      .toEqual({ action: 'consult', at: 'SVC-RS', tpEmis: 7 });
  });
  it('a note that never left, or was rejected, follows the breaker', () => {
    expect(nfeRoute({ uf: 'SP', stateBreakerOpen: true, previous: { outcome: 'not_sent', tpEmis: 1 } }))
      .toEqual({ action: 'send', to: 'SVC-AN', tpEmis: 6 });
    expect(nfeRoute({ uf: 'SP', stateBreakerOpen: false, previous: { outcome: 'rejected', tpEmis: 6 } }))
      .toEqual({ action: 'send', to: 'state', tpEmis: 1 });
  });
  it('a note authorized in SVC is final: never sent to the state', () => {
    expect(nfeRoute({ uf: 'SP', stateBreakerOpen: false, previous: { outcome: 'final', tpEmis: 6 } })).toEqual({ action: 'none' });
  });
});

describe('nfeServiceAuthorizer', () => {
  it('consultation and cancellation of an SVC note go to that SVC; other events are not taken there', () => {
    expect(nfeServiceAuthorizer('SP', 6, 'cancel')).toBe('SVC-AN');
    expect(nfeServiceAuthorizer('PR', 7, 'consult')).toBe('SVC-RS');
    expect(nfeServiceAuthorizer('PR', 7, 'other')).toBeNull();
    expect(nfeServiceAuthorizer('SP', 1, 'cancel')).toBe('state');
  });
});
