import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dayRange, localDateOf, startOfDay } from './calendar';
import { changePct, orderWindows, planDashboard, summarize } from './stats';

describe('store-timezone days', () => {
  it('starts a day at local midnight', () => {
    expect(startOfDay('2026-12-07', 'UTC')).toBe(Date.UTC(2026, 11, 7));
    expect(startOfDay('2026-12-07', 'Asia/Seoul')).toBe(Date.UTC(2026, 11, 6, 15));
    expect(startOfDay('2026-12-07', 'America/New_York')).toBe(Date.UTC(2026, 11, 7, 5));
    expect(startOfDay('2026-12-07', 'Asia/Kathmandu')).toBe(Date.UTC(2026, 11, 6, 18, 15));
  });

  it('gives DST days 23 and 25 hours', () => {
    const spring = dayRange('2026-03-08', 'America/New_York');
    expect(spring.end - spring.start).toBe(23 * 3_600_000);
    const fall = dayRange('2026-11-01', 'America/New_York');
    expect(fall.end - fall.start).toBe(25 * 3_600_000);
    const berlin = dayRange('2026-03-29', 'Europe/Berlin');
    expect(berlin.end - berlin.start).toBe(23 * 3_600_000);
  });

  it('starts a day whose midnight does not exist at 01:00 (America/Santiago, September)', () => {
    // 2026-09-06 00:00 does not exist in Santiago: clocks go from 23:59:59 to 01:00 (UTC−3).
    const start = startOfDay('2026-09-06', 'America/Santiago');
    expect(localDateOf(start, 'America/Santiago')).toBe('2026-09-06');
    expect(localDateOf(start - 60_000, 'America/Santiago')).toBe('2026-09-05');
    expect(start).toBe(Date.UTC(2026, 8, 6, 4));
  });

  it('puts an instant in its local day (property)', () => {
    const zones = [
      'UTC',
      'America/New_York',
      'Europe/Berlin',
      'Asia/Kolkata',
      'Australia/Lord_Howe',
      'Pacific/Kiritimati',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.constantFrom(...zones),
        (at, zone) => {
          const date = localDateOf(at, zone);
          const { start, end } = dayRange(date, zone);
          expect(start).toBeLessThanOrEqual(at);
          expect(at).toBeLessThan(end);
          expect(localDateOf(start, zone)).toBe(date);
          expect(localDateOf(end, zone)).toBe(addDays(date, 1));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('treats an unknown zone as UTC', () => {
    expect(localDateOf(Date.UTC(2026, 0, 1, 23), 'Mars/Olympus')).toBe('2026-01-01');
  });
});

describe('change_pct', () => {
  it('is (current − previous) / previous × 100 with one decimal', () => {
    expect(changePct(150, 100)).toBe(50);
    expect(changePct(50, 100)).toBe(-50);
    expect(changePct(2, 3)).toBe(-33.3);
    expect(changePct(5, 3)).toBe(66.7);
    expect(changePct(100, 100)).toBe(0);
  });

  it('rounds half away from zero exactly', () => {
    expect(changePct(10_001, 8_000)).toBe(25); // 25.0125
    expect(changePct(1_0005, 10_000)).toBe(0.1); // 0.05 → 0.1
    expect(changePct(9_995, 10_000)).toBe(-0.1); // −0.05 → −0.1
    expect(changePct(1_000_015, 1_000_000)).toBe(0); // 0.0015
  });

  it('answers 0 for a previous 0, or 100 when current is above 0', () => {
    expect(changePct(0, 0)).toBe(0);
    expect(changePct(1, 0)).toBe(100);
    expect(changePct(-500, 0)).toBe(0);
  });

  it('agrees with the rounded quotient (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: 1, max: 1e9 }),
        (current, previous) => {
          const pct = changePct(current, previous);
          const exact = ((current - previous) / previous) * 100;
          expect(Math.abs(pct - exact)).toBeLessThanOrEqual(0.05 + 1e-9 * Math.max(1, Math.abs(exact)));
          expect(Math.round(pct * 10)).toBe(pct * 10);
        },
      ),
    );
  });
});

describe('the dashboard plan and summary', () => {
  const counts = (daily: number[]) => ({
    daily_revenue: daily,
    today_orders: 3,
    yesterday_orders: 2,
    pending_orders: 7,
    pending_new_last_24h: 1,
    pending_new_previous_24h: 4,
  });

  it('covers the chart and the previous month, day by day, in the store zone', () => {
    const now = Date.UTC(2026, 11, 7, 20); // 2026-12-08 05:00 in Seoul
    const plan = planDashboard(now, 'Asia/Seoul', 7);
    expect(plan.today).toBe('2026-12-08');
    expect(plan.days[0]).toBe('2026-11-01');
    expect(plan.days.at(-1)).toBe('2026-12-08');
    expect(plan.bounds).toHaveLength(plan.days.length + 1);
    expect(plan.bounds.at(-1)).toBe(Date.UTC(2026, 11, 8, 15));
    const windows = orderWindows(plan);
    expect(windows.today).toEqual({ from: Date.UTC(2026, 11, 7, 15), to: Date.UTC(2026, 11, 8, 15) });
    expect(windows.yesterday.from).toBe(Date.UTC(2026, 11, 6, 15));
  });

  it('zero-fills the chart, oldest first, ending today', () => {
    const plan = planDashboard(Date.UTC(2026, 11, 7, 12), 'UTC', 7);
    const daily = plan.days.map(() => 0);
    daily[daily.length - 1] = 500; // today
    daily[daily.length - 3] = 200; // 2026-12-05
    const numbers = summarize(plan, counts(daily));
    expect(numbers.revenue_chart.map((p) => p.date)).toEqual([
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
      '2026-12-07',
    ]);
    expect(numbers.revenue_chart.map((p) => p.revenue)).toEqual([0, 0, 0, 0, 200, 0, 500]);
    expect(numbers.today_revenue).toEqual({ value: 500, change_pct: 100 });
    expect(numbers.today_orders).toEqual({ value: 3, change_pct: 50 });
    expect(numbers.pending_orders).toEqual({ value: 7, change_pct: -75 });
  });

  it('covers 30 days starting before the previous month when needed', () => {
    const plan = planDashboard(Date.UTC(2026, 2, 10, 12), 'UTC', 30);
    expect(plan.days[0]).toBe('2026-02-01');
    const numbers = summarize(plan, counts(plan.days.map(() => 1)));
    expect(numbers.revenue_chart).toHaveLength(30);
    expect(numbers.revenue_chart[0]?.date).toBe('2026-02-09');
  });

  it('compares month to date with the same days of the previous month, clamped to its length', () => {
    const plan = planDashboard(Date.UTC(2026, 2, 31, 12), 'UTC', 7); // 31 March
    const daily = plan.days.map((day) => (day.startsWith('2026-03') ? 10 : 20));
    const numbers = summarize(plan, counts(daily));
    expect(numbers.month_revenue.value).toBe(310);
    // February 2026 has 28 days: 560.
    expect(numbers.month_revenue.change_pct).toBe(changePct(310, 560));
    const early = planDashboard(Date.UTC(2026, 2, 2, 12), 'UTC', 7); // 2 March: days 1–2 of each
    const n = summarize(early, counts(early.days.map((day) => (day.startsWith('2026-03') ? 10 : 20))));
    expect(n.month_revenue).toEqual({ value: 20, change_pct: -50 });
  });

  it('counts a 25-hour DST day as one day', () => {
    const plan = planDashboard(Date.UTC(2026, 10, 2, 12), 'America/New_York', 7);
    const i = plan.days.indexOf('2026-11-01');
    expect((plan.bounds[i + 1] as number) - (plan.bounds[i] as number)).toBe(25 * 3_600_000);
  });
});
