import { z } from 'zod';

/**
 * A whole number sent as query text, from `min` to `max`, with one message for every way it can be
 * wrong; `fallback` when it is not sent. Blank text (`?count=`) is refused with that message, not
 * read as 0 as `Number('')` would.
 */
export function queryWholeNumber(message: string, min: number, max: number, fallback: number) {
  const wrong = { message };
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? Number.NaN : value),
    // The default inside the pipe, so the API reference shows it.
    z.coerce.number(wrong).int(wrong).min(min, wrong).max(max, wrong).default(fallback),
  );
}
