import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserTimeZone, canonicalTimeZone, timeZones } from './timezones.js';

/** Makes the browser report `zone` as its own, as Chromium does in India (`Asia/Calcutta`). */
function browserIn(zone: string) {
  const real = Intl.DateTimeFormat;
  vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(((...args: ConstructorParameters<typeof real>) => {
    const format = new real(...args);
    const resolved = format.resolvedOptions();
    format.resolvedOptions = () => ({ ...resolved, timeZone: zone });
    return format;
  }) as typeof Intl.DateTimeFormat);
}

afterEach(() => vi.restoreAllMocks());

describe('time zones', () => {
  it.each([
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['Europe/Kiev', 'Europe/Kyiv'],
    ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
    ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Europe/Paris', 'Europe/Paris'],
    ['UTC', 'UTC'],
  ])('names %s by its current IANA name %s', (zone, canonical) => {
    expect(canonicalTimeZone(zone)).toBe(canonical);
  });

  it("maps the browser's zone to its current name", () => {
    browserIn('Asia/Calcutta');
    expect(browserTimeZone()).toBe('Asia/Kolkata');
  });

  it('lists every zone once, by its current name, sorted, with UTC and the given zone', () => {
    vi.spyOn(Intl, 'supportedValuesOf').mockReturnValue([
      'Europe/Kiev',
      'Asia/Kolkata',
      'Asia/Calcutta',
      'Europe/Paris',
    ]);
    expect(timeZones('America/Argentina/Buenos_Aires')).toEqual([
      'America/Argentina/Buenos_Aires',
      'Asia/Kolkata',
      'Europe/Kyiv',
      'Europe/Paris',
      'UTC',
    ]);
  });

  it('lists no old name among the zones this runtime knows', () => {
    const zones = timeZones('UTC');
    expect(zones).toContain('Asia/Kolkata');
    expect(zones).not.toContain('Asia/Calcutta');
    expect(zones).not.toContain('Europe/Kiev');
  });
});
