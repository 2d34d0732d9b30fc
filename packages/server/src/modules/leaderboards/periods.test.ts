import { describe, expect, it } from 'vitest';
import { IANAZone } from 'luxon';
import { computePeriod, isValidTimeZone, periodAt } from './periods.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const span = (p: { start: number; end: number }) => [iso(p.start), iso(p.end)];

describe('periods: hourly across DST', () => {
  it('Europe/London, spring forward (2026-03-29 01:00 UTC): the hour after 00:59 GMT starts at 02:00 BST', () => {
    const before = periodAt('hourly', 'Europe/London', at('2026-03-29T00:30:00Z'));
    expect(span(before)).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z']);
    const after = periodAt('hourly', 'Europe/London', at('2026-03-29T01:10:00Z'));
    expect(span(after)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z']);
    expect(span(periodAt('hourly', 'Europe/London', at('2026-03-29T01:10:00Z'), -1))).toEqual(span(before));
  });

  it('Europe/London, fall back (2026-10-25): the repeated 01:00 hour is two periods', () => {
    const bst = periodAt('hourly', 'Europe/London', at('2026-10-25T00:30:00Z'));
    const gmt = periodAt('hourly', 'Europe/London', at('2026-10-25T01:30:00Z'));
    expect(span(bst)).toEqual(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z']);
    expect(span(gmt)).toEqual(['2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z']);
    expect(periodAt('hourly', 'Europe/London', at('2026-10-25T01:30:00Z'), -1).start).toBe(bst.start);
  });

  it('America/New_York, spring forward (2026-03-08) and fall back (2026-11-01)', () => {
    // 01:59 EST is followed by 03:00 EDT.
    expect(span(periodAt('hourly', 'America/New_York', at('2026-03-08T06:30:00Z')))).toEqual([
      '2026-03-08T06:00:00.000Z',
      '2026-03-08T07:00:00.000Z',
    ]);
    expect(span(periodAt('hourly', 'America/New_York', at('2026-03-08T07:30:00Z')))).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-03-08T08:00:00.000Z',
    ]);
    // 01:00–02:00 happens twice: EDT (05:00Z) then EST (06:00Z).
    const edt = periodAt('hourly', 'America/New_York', at('2026-11-01T05:30:00Z'));
    const est = periodAt('hourly', 'America/New_York', at('2026-11-01T06:30:00Z'));
    expect(span(edt)).toEqual(['2026-11-01T05:00:00.000Z', '2026-11-01T06:00:00.000Z']);
    expect(span(est)).toEqual(['2026-11-01T06:00:00.000Z', '2026-11-01T07:00:00.000Z']);
    expect(periodAt('hourly', 'America/New_York', at('2026-11-01T06:30:00Z'), -1).start).toBe(edt.start);
  });
});

describe('periods: days, ISO weeks, months, years', () => {
  it('a day in a zone is its local midnight to midnight, 23 hours long on a spring-forward day', () => {
    const p = periodAt('daily', 'America/New_York', at('2026-03-08T12:00:00Z'));
    expect(span(p)).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
  });

  it('weeks start on Monday: ISO week 53 of 2026 (Dec 28 – Jan 3) and week 1 of 2027', () => {
    const w53 = periodAt('weekly', 'UTC', at('2027-01-02T12:00:00Z'));
    expect(span(w53)).toEqual(['2026-12-28T00:00:00.000Z', '2027-01-04T00:00:00.000Z']);
    const w1 = periodAt('weekly', 'UTC', at('2027-01-04T00:00:00Z'));
    expect(span(w1)).toEqual(['2027-01-04T00:00:00.000Z', '2027-01-11T00:00:00.000Z']);
    expect(periodAt('weekly', 'UTC', at('2027-01-04T00:00:00Z'), -1).start).toBe(w53.start);
    // ISO week 1 of 2026 starts on Monday 2025-12-29.
    expect(iso(periodAt('weekly', 'UTC', at('2026-01-01T10:00:00Z')).start)).toBe('2025-12-29T00:00:00.000Z');
  });

  it('months in Asia/Kolkata (+05:30) start at local midnight on the 1st', () => {
    const p = periodAt('monthly', 'Asia/Kolkata', at('2026-02-10T00:00:00Z'));
    expect(span(p)).toEqual(['2026-01-31T18:30:00.000Z', '2026-02-28T18:30:00.000Z']);
    expect(iso(periodAt('monthly', 'Asia/Kolkata', at('2026-02-10T00:00:00Z'), -2).start)).toBe(
      '2025-11-30T18:30:00.000Z',
    );
  });

  it('months in Australia/Lord_Howe follow its 30-minute DST shift (+11 in summer, +10:30 in winter)', () => {
    // April 2026 starts in daylight time (+11); May starts in standard time (+10:30).
    const april = periodAt('monthly', 'Australia/Lord_Howe', at('2026-04-15T00:00:00Z'));
    expect(span(april)).toEqual(['2026-03-31T13:00:00.000Z', '2026-04-30T13:30:00.000Z']);
  });

  it('years are calendar years in the zone, and the next reset is the end of the current one', () => {
    const p = periodAt('yearly', 'Europe/Paris', at('2026-06-01T00:00:00Z'), -1);
    expect(span(p)).toEqual(['2024-12-31T23:00:00.000Z', '2025-12-31T23:00:00.000Z']);
    expect(iso(p.nextReset)).toBe('2026-12-31T23:00:00.000Z');
    expect(p.offset).toBe(-1);
  });
});

describe('periods far back (issue 14: offsets were walked one period at a time)', () => {
  // The walk this replaced, one period back at a time, is the definition the direct arithmetic must
  // keep: each step of one walk is checked, so every offset from 0 to -1000 is, from each start.
  it.each(['Europe/London', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'UTC'])(
    'in %s, every offset down to -1000 is the period reached by stepping back one at a time',
    (zone) => {
      for (const resets of ['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const) {
        for (let k = 0; k < 3; k++) {
          const now = at('2024-01-01T00:00:00Z') + ((k * 7_919_993_377) % (3 * 365 * 86_400_000));
          let start = periodAt(resets, zone, now).start;
          for (let offset = 0; offset >= -1000; offset--) {
            expect(periodAt(resets, zone, now, offset).start).toBe(start);
            start = periodAt(resets, zone, start - 1).start;
          }
        }
      }
    },
  );

  it('computes an offset of -1000 on an hourly board as fast as the current period', () => {
    // Not a timing test: the work is the same few calendar operations whatever the offset.
    const p = periodAt('hourly', 'Europe/London', at('2026-11-23T12:34:00Z'), -1000);
    expect(iso(p.start)).toBe('2026-10-12T20:00:00.000Z');
  });
});

describe('periods worked out once per period', () => {
  const RESETS = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
  /** A year every 23 hours, and every 30 minutes from a day before each change of the zone's UTC offset found to 13 hours after. */
  function instants(zone: string): number[] {
    const utcOffset = (t: number) => IANAZone.create(zone).offset(t);
    const coarse: number[] = [];
    for (let t = at('2026-01-01T00:00:00Z'); t < at('2027-01-01T00:00:00Z'); t += 23 * 3_600_000) coarse.push(t);
    const fine: number[] = [];
    coarse.forEach((t, i) => {
      if (i === 0 || utcOffset(t) === utcOffset(coarse[i - 1]!)) return;
      for (let u = t - 24 * 3_600_000; u < t + 13 * 3_600_000; u += 30 * 60_000) fine.push(u);
    });
    return [...coarse, ...fine].sort((a, b) => a - b);
  }

  // Zones with DST at 01:00 UTC, at 02:00 local, by 30 minutes, at midnight (Havana), and none.
  it.each(['Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'America/Havana', 'Asia/Kolkata', 'UTC'])(
    'in %s, every instant across a year answers what working it out afresh does, in order and shuffled',
    (zone) => {
      const times = instants(zone);
      const shuffled = times.map((t, i) => [t, (i * 7_919) % times.length] as const).sort((a, b) => a[1] - b[1]);
      for (const resets of RESETS) {
        for (const offset of [0, -1]) {
          const expected = new Map(times.map((t) => [t, computePeriod(resets, zone, t, offset)]));
          for (const order of [times, shuffled.map(([t]) => t)]) {
            for (const t of order) expect(periodAt(resets, zone, t, offset)).toEqual(expected.get(t));
          }
        }
      }
    },
  );

  it('answers the same period, frozen, for instants of one steady period', () => {
    const first = periodAt('daily', 'UTC', at('2026-11-23T01:00:00Z'));
    expect(periodAt('daily', 'UTC', at('2026-11-23T23:59:59Z'))).toBe(first);
    expect(periodAt('daily', 'Europe/Paris', at('2026-11-23T01:00:00Z'))).toBe(
      periodAt('daily', 'Europe/Paris', at('2026-11-23T20:00:00Z')),
    );
    expect(Object.isFrozen(first)).toBe(true);
    expect(periodAt('daily', 'UTC', at('2026-11-24T00:00:00Z'))).not.toEqual(first);
  });
});

describe('isValidTimeZone', () => {
  it.each([
    ['Europe/London', true],
    ['Asia/Kolkata', true],
    ['UTC', true],
    ['Mars/Base', false],
    ['', false],
  ])('%s → %s', (zone, ok) => expect(isValidTimeZone(zone)).toBe(ok));
});
