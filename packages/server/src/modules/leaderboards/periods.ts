import type { ResetPeriod } from '@howl/contract';
import { DateTime, IANAZone } from 'luxon';

const UNIT = { hourly: 'hour', daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year' } as const;

export interface Period {
  offset: number;
  /** Epoch ms of the period's first instant: the key its scores are stored under. */
  start: number;
  /** Epoch ms of the next period's first instant. */
  end: number;
  /** When the current period ends, whatever the offset. */
  nextReset: number;
}

/** Whether two answers name the same period (both none, or equal in every field). */
export function samePeriod(a: Period | null, b: Period | null): boolean {
  if (a === null || b === null) return a === b;
  return a.offset === b.offset && a.start === b.start && a.end === b.end && a.nextReset === b.nextReset;
}

export function isValidTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/**
 * The period `offset` periods before the one containing `now`, in the board's time zone: hours, days,
 * ISO weeks (Monday first), calendar months and years. Luxon does the zone arithmetic, DST included.
 */
export function periodAt(resets: Exclude<ResetPeriod, 'na'>, zone: string, now: number, offset = 0): Period {
  const unit = UNIT[resets];
  const current = DateTime.fromMillis(now, { zone }).startOf(unit);
  const nextReset = next(current, unit);
  const start = offset === 0 ? current : back(current, unit, -offset);
  return { offset, start: start.toMillis(), end: next(start, unit).toMillis(), nextReset: nextReset.toMillis() };
}

// Hours step in absolute time, so the repeated hour of a DST change is two periods; longer units step by the calendar.
function next(start: DateTime, unit: (typeof UNIT)[keyof typeof UNIT]): DateTime {
  return unit === 'hour' ? start.plus({ hours: 1 }) : start.plus({ [`${unit}s`]: 1 }).startOf(unit);
}

/** `count` periods before `start`, in one step of calendar arithmetic: the cost does not grow with `count`. */
function back(start: DateTime, unit: (typeof UNIT)[keyof typeof UNIT], count: number): DateTime {
  return unit === 'hour'
    ? start.minus({ hours: count }).startOf('hour')
    : start.minus({ [`${unit}s`]: count }).startOf(unit);
}
