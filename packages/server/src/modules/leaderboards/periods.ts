import type { ResetPeriod } from '@howl/contract';
import { DateTime, IANAZone, type Zone } from 'luxon';

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
export function computePeriod(resets: Exclude<ResetPeriod, 'na'>, zone: string, now: number, offset = 0): Period {
  return periodParts(resets, zone, now, offset).period;
}

function periodParts(resets: Exclude<ResetPeriod, 'na'>, zone: string, now: number, offset: number) {
  const unit = UNIT[resets];
  const local = DateTime.fromMillis(now, { zone });
  const current = local.startOf(unit);
  const nextReset = next(current, unit);
  const start = offset === 0 ? current : back(current, unit, -offset);
  const period = {
    offset,
    start: start.toMillis(),
    end: next(start, unit).toMillis(),
    nextReset: nextReset.toMillis(),
  };
  return { period, local, current, nextReset };
}

/** A period worked out, and the instants it holds for: its current period's, at one UTC offset. */
interface Known {
  from: number;
  to: number;
  utcOffset: number;
  zone: Zone;
  period: Period;
}
/** By reset, zone and offset: each board asks the same few, every call, until its period ends. */
const known = new Map<string, Known>();
/** Boards' resets, zones and offsets kept at once; the oldest goes first. */
const KNOWN_PERIODS = 1024;

/**
 * `computePeriod`, done once per period: Luxon's zone arithmetic costs tens of µs, more than the
 * rest of a game call. It is kept when the current period starts and ends on the local clock's
 * boundaries at the UTC offset of `now`: an instant within it at that offset truncates to the same
 * local start, so it has the same answer. Any other instant is worked out again (the period's own
 * DST change, a local start a DST gap skipped, an hour that happens twice, a clock set back).
 */
export function periodAt(resets: Exclude<ResetPeriod, 'na'>, zone: string, now: number, offset = 0): Period {
  const key = `${resets}\u0000${zone}\u0000${offset}`;
  const hit = known.get(key);
  if (hit && hit.from <= now && now < hit.to && (hit.zone.isUniversal || hit.zone.offset(now) === hit.utcOffset)) {
    return hit.period;
  }
  const { period, local, current, nextReset } = periodParts(resets, zone, now, offset);
  Object.freeze(period);
  const unit = UNIT[resets];
  if (onBoundary(current, unit, local.offset) && onBoundary(nextReset, unit, local.offset) && current <= local) {
    if (!hit && known.size >= KNOWN_PERIODS) known.delete(known.keys().next().value!);
    known.set(key, {
      from: current.toMillis(),
      to: period.nextReset,
      utcOffset: local.offset,
      zone: local.zone,
      period,
    });
  }
  return period;
}

/**
 * Whether `dt` is a start of `unit` on the local clock, at this UTC offset: a local start that does
 * not exist (a DST gap at it) moves elsewhere, and the instants between are not one period.
 */
function onBoundary(dt: DateTime, unit: (typeof UNIT)[keyof typeof UNIT], utcOffset: number): boolean {
  if (dt.offset !== utcOffset || dt.millisecond !== 0 || dt.second !== 0 || dt.minute !== 0) return false;
  if (unit === 'hour') return true;
  if (dt.hour !== 0) return false;
  if (unit === 'day') return true;
  if (unit === 'week') return dt.weekday === 1;
  return dt.day === 1 && (unit === 'month' || dt.month === 1);
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
