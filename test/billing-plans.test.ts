// Plans as data (README table in sync), billing periods, proration by hand, invoice lines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planAt } from '../src/platform/billing/account-plan.js';
import { invoiceLines } from '../src/platform/billing/invoices.js';
import { isPeriodId, nextPeriod, periodBounds, periodOf, previousPeriod } from '../src/platform/billing/period.js';
import { brl, PLAN_IDS, PLANS, plansTableMarkdown, USAGE_KINDS } from '../src/platform/billing/plans.js';
import { prorate } from '../src/platform/billing/proration.js';
import type { PlanChangeRow } from '../src/infra/storage/repositories/billing-repository.js';

const readme = readFileSync(new URL('../docs/guides/billing.md', import.meta.url), 'utf8');

describe('plans', () => {
  it('the docs/guides/billing.md "Plans" table is the one generated from PLANS', () => {
    const section = readme.slice(readme.indexOf('### Plans'));
    const table = section.split('\n').filter((l) => l.startsWith('|')).slice(0, PLAN_IDS.length + 2).join('\n');
    expect(table, 'regenerate with plansTableMarkdown() (src/platform/billing/plans.ts)').toBe(plansTableMarkdown());
  });

  it('every plan prices every type in integer cents, dearer plans include more and charge less per extra document', () => {
    for (const [i, id] of PLAN_IDS.entries()) {
      const p = PLANS[id];
      expect(Number.isInteger(p.monthly_price_cents)).toBe(true);
      for (const k of USAGE_KINDS) {
        expect(Number.isInteger(p.included[k]) && Number.isInteger(p.overage_cents[k])).toBe(true);
        if (i > 0) {
          const prev = PLANS[PLAN_IDS[i - 1]!];
          expect(p.included[k]).toBeGreaterThan(prev.included[k]);
          expect(p.overage_cents[k]).toBeLessThan(prev.overage_cents[k]);
          expect(p.monthly_price_cents).toBeGreaterThan(prev.monthly_price_cents);
        }
      }
    }
    expect(brl(4_900)).toBe('R$ 49,00');
    expect(brl(123_456_78)).toBe('R$ 123.456,78');
    expect(brl(6)).toBe('R$ 0,06');
  });
});

describe('billing periods (calendar months, Brasília time UTC-03:00)', () => {
  it('a sale late on 31 October in São Paulo is October, though already November in UTC', () => {
    expect(periodOf(new Date('2026-11-01T02:59:59.999Z'))).toBe('2026-10');
    expect(periodOf(new Date('2026-11-01T03:00:00.000Z'))).toBe('2026-11');
    expect(periodBounds('2026-11')).toEqual({ id: '2026-11', start: new Date('2026-11-01T03:00:00.000Z'), end: new Date('2026-12-01T03:00:00.000Z') });
    expect(nextPeriod('2026-12')).toBe('2027-01');
    expect(previousPeriod('2027-01')).toBe('2026-12');
    expect(isPeriodId('2026-13')).toBe(false);
    expect(isPeriodId('2026-1')).toBe(false);
    expect(isPeriodId('2026-02')).toBe(true);
  });
});

describe('proration, computed by hand', () => {
  const nov = periodBounds('2026-11'); // 30 days = 720 h
  it('starter (R$ 49) to pro (R$ 199) halfway through November: R$ 150 x 15/30 = R$ 75,00', () => {
    const p = prorate('starter', 'pro', nov, new Date('2026-11-16T03:00:00.000Z'));
    expect(p).toMatchObject({ price_difference_cents: 15_000, remaining_ms: 15 * 86_400_000, period_ms: 30 * 86_400_000, fraction: 0.5, amount_cents: 7_500 });
  });
  it('the same at 21 November 12:00 Brasília: 228 h of 720 left -> 15000 x 228/720 = 4750 cents', () => {
    expect(prorate('starter', 'pro', nov, new Date('2026-11-21T15:00:00.000Z')).amount_cents).toBe(4_750);
  });
  it('free to enterprise on 10 February 2026 (28-day month, 19 days left): 99900 x 19/28 = 67789.29 -> 67789', () => {
    const feb = periodBounds('2026-02');
    const p = prorate('free', 'enterprise', feb, new Date('2026-02-10T03:00:00.000Z'));
    expect(p.amount_cents).toBe(67_789);
    expect(p.fraction).toBe(0.678571);
  });
  it('at the very start the whole difference; at the end nothing; a downgrade refunds nothing', () => {
    expect(prorate('starter', 'pro', nov, nov.start).amount_cents).toBe(15_000);
    expect(prorate('starter', 'pro', nov, nov.end).amount_cents).toBe(0);
    expect(prorate('pro', 'starter', nov, new Date('2026-11-16T03:00:00.000Z')).amount_cents).toBe(0);
  });
});

describe('invoice lines', () => {
  const change = (c: Partial<PlanChangeRow> & Pick<PlanChangeRow, 'from_plan' | 'to_plan' | 'kind' | 'period' | 'effective_at'>): PlanChangeRow => ({
    id: `pch_${c.to_plan}`, account_id: 'acc_x', requested_at: c.effective_at, proration_cents: 0, trial_ends_at: null, canceled_at: null, ...c,
  });
  const changes = [
    change({ from_plan: 'free', to_plan: 'starter', kind: 'upgrade', period: '2026-10', effective_at: new Date('2026-10-05T03:00:00Z'), proration_cents: 4_110 }),
    change({ from_plan: 'starter', to_plan: 'pro', kind: 'upgrade', period: '2026-11', effective_at: new Date('2026-11-16T03:00:00Z'), proration_cents: 7_500 }),
    change({ from_plan: 'pro', to_plan: 'free', kind: 'downgrade', period: '2026-11', effective_at: new Date('2026-12-01T03:00:00Z') }),
  ];

  it('November: the plan at its start (starter), the upgrade\'s proration, overage at the plan in force at its end (pro)', () => {
    const lines = invoiceLines(changes, periodBounds('2026-11'), { nfce: 10_050, nfe: 10 });
    expect(lines.map((l) => [l.kind, l.quantity, l.unit_cents, l.amount_cents])).toEqual([
      ['plan', 1, 4_900, 4_900],
      ['proration', 1, 7_500, 7_500],
      ['overage.nfce', 50, 6, 300],
    ]);
    expect(lines.reduce((s, l) => s + l.amount_cents, 0)).toBe(12_700);
  });

  it('the downgrade takes effect at the period end: December is free, with free overage prices', () => {
    expect(planAt(changes, new Date('2026-12-01T02:59:59.999Z'))).toBe('pro');
    expect(planAt(changes, new Date('2026-12-01T03:00:00.000Z'))).toBe('free');
    expect(invoiceLines(changes, periodBounds('2026-12'), { nfce: 101 })).toEqual([
      { kind: 'overage.nfce', description: 'NFC-e past the 100 included (101 used) at R$ 0,25 each', quantity: 1, unit_cents: 25, amount_cents: 25 },
    ]);
  });

  it('a trial across the month (pro from 25 November, trial to 9 December) and enterprise on 5 December, within it: December charges both from the trial end, 19900 x 23/31 -> 14765 and 80000 x 23/31 -> 59355', () => {
    const trial = [
      change({ from_plan: 'free', to_plan: 'pro', kind: 'upgrade', period: '2026-11', effective_at: new Date('2026-11-25T03:00:00Z'), trial_ends_at: new Date('2026-12-09T03:00:00Z') }),
      change({ from_plan: 'pro', to_plan: 'enterprise', kind: 'upgrade', period: '2026-12', effective_at: new Date('2026-12-05T03:00:00Z'), proration_cents: 59_355 }),
    ];
    expect(invoiceLines(trial, periodBounds('2026-11'), { nfce: 20_000 })).toEqual([]);
    expect(invoiceLines(trial, periodBounds('2026-12'), {}).map((l) => [l.kind, l.amount_cents, l.description])).toEqual([
      ['plan', 14_765, "Pro plan from the trial's end on 2026-12-09, 2026-12"],
      ['proration', 59_355, 'Upgrade Pro to Enterprise on 2026-12-05 (rest of the period)'],
    ]);
    expect(invoiceLines(trial, periodBounds('2027-01'), {}).map((l) => [l.kind, l.amount_cents])).toEqual([['plan', 99_900]]);
  });

  it('a canceled change does not count', () => {
    const canceled = changes.map((c) => (c.kind === 'downgrade' ? { ...c, canceled_at: new Date('2026-11-20T00:00:00Z') } : c));
    expect(planAt(canceled, new Date('2026-12-15T00:00:00Z'))).toBe('pro');
  });
});
