import { describe, expect, it } from 'vitest';
import { checkLedger, type SimNoteRow, type SimVoidRow } from '../bench/support/contingency-ledger.js';

// The books of bench/chaos-contingency.ts: what the simulated SEFAZ holds, per sale and per number.
const CNPJ = '06157250000116';
const cnpjOf = new Map([['iss_1', CNPJ]]);
const key = (n: number) => `3526${String(n).padStart(40, '0')}`;
const sim = (nnf: number, status: SimNoteRow['status'] = 'authorized'): SimNoteRow => ({ access_key: key(nnf), cnpj: CNPJ, model: 65, serie: 1, nnf, status });
const voided = (n_ini: number, n_fin = n_ini): SimVoidRow => ({ cnpj: CNPJ, model: 65, serie: 1, n_ini, n_fin });
const note = (id: string, number: number, first: { number: number; outcome: string } | null | undefined, status = 'authorized') => ({
  id, status, issuer_id: 'iss_1', model: 65, serie: 1, number, access_key: key(number),
  contingency: first === undefined ? null : {
    entered_at: '2026-11-26T10:00:00Z', deadline_at: '2026-11-27T10:00:00Z', transmitted_at: '2026-11-26T10:01:00Z',
    first_attempt: first ? { serie: 1, number: first.number, access_key: key(first.number), outcome: first.outcome } : null,
  },
});

describe('checkLedger (bench:chaos-contingency)', () => {
  // n1: normal; n2: first attempt 2 never reached the authority (voided), contingency 3;
  // n3: first attempt 4 authorized after all, canceled by substitution, contingency 5; n4: straight to contingency, 6.
  const [n1, n2, n3, n4] = [note('n1', 1, undefined), note('n2', 3, { number: 2, outcome: 'voided' }), note('n3', 5, { number: 4, outcome: 'canceled_by_substitution' }), note('n4', 6, null)];
  const notes = [n1, n2, n3, n4];
  const clean = { notes, accepted: ['n1', 'n2', 'n3', 'n4'], cnpjOf, simNotes: [sim(1), sim(3), sim(4, 'canceled'), sim(5), sim(6)], simVoids: [voided(2)] };

  it('finds nothing wrong in books that hold exactly one valid note per sale and explain every number', () => {
    const r = checkLedger(clean);
    expect([...r.lost, ...r.duplicated, ...r.strays, ...r.unexplained, ...r.late]).toEqual([]);
    expect(r.counts).toMatchObject({ contingencyNotes: 3, straightToContingency: 1, afterBound: 2, firstAttemptsVoided: 1, firstAttemptsCanceled: 1, numbersChecked: 6 });
  });

  it('calls a first attempt the authority still holds as authorized a duplicate', () => {
    const r = checkLedger({ ...clean, simNotes: [sim(1), sim(3), sim(4), sim(5), sim(6)] });
    expect(r.duplicated).toHaveLength(1);
    expect(r.duplicated[0]).toMatch(/^n3 /);
  });

  it('names a number neither authorized, canceled nor voided, also one the gateway counter passed', () => {
    const r = checkLedger({ ...clean, simVoids: [], nextNumber: new Map([['iss_1/65/1', 9]]) });
    expect(r.unexplained).toEqual([`CNPJ ${CNPJ} model 65 series 1 (1..8): 2,7,8`]);
  });

  it('counts a sale still in contingency, or with its first attempt pending, as lost', () => {
    const r = checkLedger({ ...clean, notes: [n1, { ...n2, status: 'contingency' }, note('n3', 5, { number: 4, outcome: 'pending' }), n4] });
    expect(r.lost.map((l) => l.split(' ')[0])).toEqual(['n2', 'n3']);
  });

  it('flags an authorization no sale names and a contingency note sent after its deadline', () => {
    const lateNote = { ...n4, contingency: { ...n4.contingency, transmitted_at: '2026-11-27T11:00:00Z' } };
    const r = checkLedger({ ...clean, notes: [n1, n2, n3, lateNote], simNotes: [...clean.simNotes, sim(7)] });
    expect(r.strays).toHaveLength(1);
    expect(r.late).toHaveLength(1);
  });
});
