import type { Millis } from '../ports/storage';
import { addDays, daysInMonth, type LocalDate, localDateOf, startOfDay } from './calendar';

/**
 * The rules of the dashboard's numbers (decisions §23), pure: which local days a request needs,
 * and how the sums the storage returns for them become the KPIs and the chart.
 */

/** The periods `GET /v1/admin/dashboard/stats` accepts, in days. */
export const DASHBOARD_PERIODS = [7, 30] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/**
 * `(current − previous) / previous × 100` with one decimal, rounded half away from zero on exact
 * integer arithmetic (no float drift: 1 → 1.15 is 15, 2/3 is 66.7). A previous of 0 gives 0, or
 * 100 when current is above 0.
 */
export function changePct(current: number, previous: number): number {
  if (previous === 0) return current > 0 ? 100 : 0;
  const numerator = BigInt(current - previous) * 1000n;
  const denominator = BigInt(previous);
  const negative = numerator < 0n !== denominator < 0n && numerator !== 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const tenths = (2n * n + d) / (2n * d);
  const value = Number(tenths) / 10;
  return negative ? -value : value;
}

/** The local days one request reads, oldest first, and the instants that bound them. */
export interface DashboardPlan {
  period: DashboardPeriod;
  timeZone: string;
  now: Millis;
  today: LocalDate;
  /** Every day from the earliest one needed (the chart's first, or the previous month's 1st) to today. */
  days: LocalDate[];
  /** `days.length + 1` instants: day `i` is `[bounds[i], bounds[i + 1])`. */
  bounds: Millis[];
}

/** The days a request for `period` needs at `now` in `timeZone`. */
export function planDashboard(now: Millis, timeZone: string, period: DashboardPeriod): DashboardPlan {
  const today = localDateOf(now, timeZone);
  const chartStart = addDays(today, -(period - 1));
  const previousMonthStart = `${addDays(`${today.slice(0, 8)}01`, -1).slice(0, 8)}01`;
  const first = chartStart < previousMonthStart ? chartStart : previousMonthStart;
  const days: LocalDate[] = [];
  for (let day = first; day <= today; day = addDays(day, 1)) days.push(day);
  const bounds = days.map((day) => startOfDay(day, timeZone));
  bounds.push(startOfDay(addDays(today, 1), timeZone));
  return { period, timeZone, now, today, days, bounds };
}

/** What the storage counted for a plan. */
export interface DashboardCounts {
  /** Net revenue (minor units) per day of the plan, aligned with `plan.days`. */
  daily_revenue: number[];
  /** Orders created today / yesterday (local days), drafts and cancelled ones excluded. */
  today_orders: number;
  yesterday_orders: number;
  /** Orders `pending`, `confirmed` or `processing` now. */
  pending_orders: number;
  /** Of those, the ones created in the last 24 h, and in the 24 h before. */
  pending_new_last_24h: number;
  pending_new_previous_24h: number;
}

export interface DashboardNumbers {
  today_revenue: { value: number; change_pct: number };
  today_orders: { value: number; change_pct: number };
  month_revenue: { value: number; change_pct: number };
  pending_orders: { value: number; change_pct: number };
  revenue_chart: { date: LocalDate; revenue: number }[];
}

/** The windows the order counts of a plan cover: `[from, to)`. */
export function orderWindows(plan: DashboardPlan) {
  const n = plan.days.length;
  const day = 86_400_000;
  return {
    today: { from: plan.bounds[n - 1] as Millis, to: plan.bounds[n] as Millis },
    yesterday: { from: plan.bounds[n - 2] as Millis, to: plan.bounds[n - 1] as Millis },
    last24h: { from: plan.now - day, to: plan.now + 1 },
    previous24h: { from: plan.now - 2 * day, to: plan.now - day },
  };
}

/** The KPIs and the zero-filled chart (one point per day ending today, oldest first). */
export function summarize(plan: DashboardPlan, counts: DashboardCounts): DashboardNumbers {
  const revenueOn = new Map<LocalDate, number>();
  plan.days.forEach((day, i) => {
    revenueOn.set(day, counts.daily_revenue[i] ?? 0);
  });
  const on = (day: LocalDate) => revenueOn.get(day) ?? 0;
  const today = plan.today;
  const yesterday = addDays(today, -1);

  // Month to date vs the same days of the previous month (clamped to that month's length).
  const dayOfMonth = Number(today.slice(8, 10));
  let month = 0;
  for (let d = 1; d <= dayOfMonth; d++) month += on(`${today.slice(0, 8)}${String(d).padStart(2, '0')}`);
  const previousMonth = addDays(`${today.slice(0, 8)}01`, -1).slice(0, 8);
  const previousDays = Math.min(dayOfMonth, daysInMonth(`${previousMonth}01`));
  let previousMonthRevenue = 0;
  for (let d = 1; d <= previousDays; d++)
    previousMonthRevenue += on(`${previousMonth}${String(d).padStart(2, '0')}`);

  const revenue_chart: DashboardNumbers['revenue_chart'] = [];
  for (let i = plan.period - 1; i >= 0; i--) {
    const date = addDays(today, -i);
    revenue_chart.push({ date, revenue: on(date) });
  }
  return {
    today_revenue: { value: on(today), change_pct: changePct(on(today), on(yesterday)) },
    today_orders: {
      value: counts.today_orders,
      change_pct: changePct(counts.today_orders, counts.yesterday_orders),
    },
    month_revenue: { value: month, change_pct: changePct(month, previousMonthRevenue) },
    pending_orders: {
      value: counts.pending_orders,
      change_pct: changePct(counts.pending_new_last_24h, counts.pending_new_previous_24h),
    },
    revenue_chart,
  };
}
