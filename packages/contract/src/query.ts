import { z } from 'zod';

/**
 * The query's `field`, a whole number from `min` to `max`, with one message for every way it can be
 * wrong ("count must be a whole number from 0 to 50."); `fallback` when it is not sent. Blank text
 * (`?count=`) is refused with that message, not read as 0 as `Number('')` would.
 */
export function queryWholeNumber(field: string, min: number, max: number, fallback: number) {
  const wrong = { message: `${field} must be a whole number from ${min} to ${max}.` };
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? Number.NaN : value),
    // The default inside the pipe, so the API reference shows it.
    z.coerce.number(wrong).int(wrong).min(min, wrong).max(max, wrong).default(fallback),
  );
}
