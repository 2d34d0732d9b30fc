import { MAX_JSON_DEPTH } from '@howl/contract';
import { AppError } from './errors.js';

// With the u flag a surrogate pair is one code point, so only a lone half matches.
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** An object or array being walked: its key in its parent, and which of its entries comes next. */
interface Frame {
  key: string;
  value: object;
  /** An object's keys; undefined for an array, walked by index. */
  keys: string[] | undefined;
  next: number;
}

/** `player_data.inv.0`: where a value sits in the body, from its top-level field down. Made only to refuse. */
function pathOf(frames: Frame[], last?: string | number): string {
  const keys = frames.slice(1).map((frame) => frame.key);
  if (last !== undefined) keys.push(String(last));
  return keys.join('.');
}

function refuse(field: string, problem: string): AppError {
  return new AppError(400, 'InvalidParameter', `${field || 'The request body'} ${problem}`, {
    ...(field ? { field } : {}),
  });
}

/** What neither database can store the same way: NUL (PostgreSQL refuses it) and unpaired surrogates. */
function checkText(text: string, frames: Frame[], last?: string | number): void {
  if (text.includes('\u0000')) throw refuse(pathOf(frames, last), 'cannot contain the NUL character.');
  if (UNPAIRED_SURROGATE.test(text)) {
    throw refuse(pathOf(frames, last), 'is not well-formed Unicode text (an unpaired surrogate).');
  }
}

function checkLeaf(value: unknown, frames: Frame[], last?: string | number): void {
  if (typeof value === 'string') checkText(value, frames, last);
  else if (typeof value === 'number' && !Number.isFinite(value)) {
    throw refuse(pathOf(frames, last), 'is too large a number.');
  }
}

/** Starts walking an object or array; an object's keys are text the rule covers too. */
function open(frames: Frame[], key: string, value: object): void {
  const keys = Array.isArray(value) ? undefined : Object.keys(value);
  const empty = keys ? keys.length === 0 : (value as unknown[]).length === 0;
  if (empty) return;
  frames.push({ key, value, keys, next: 0 });
  if (keys) for (const name of keys) checkText(name, frames);
}

const SURROGATE = /[\ud800-\udfff]/;
// Tried only where a run of digits starts: `\d{300}` alone retries at every digit of a long run.
const DIGITS_300 = /(?<!\d)\d{300}/;
const EXPONENT = /[eE][+-]?\d/g;
const [ZERO, NINE] = [48, 57];
const BRACKETS = ['{', '['];

/** Whether a number in the text has an exponent: an e after a digit (elsewhere it is text). */
function hasExponent(text: string): boolean {
  EXPONENT.lastIndex = 0;
  for (let found = EXPONENT.exec(text); found; found = EXPONENT.exec(text)) {
    const before = text.charCodeAt(found.index - 1);
    if (before >= ZERO && before <= NINE) return true;
  }
  return false;
}

/**
 * Whether the text of a body proves it meets checkClientJson's rule without walking what it parsed
 * to. For a 1 KB document this takes about 1 µs where the walk takes 4. False only means "walk it":
 * the walk decides, and names the field.
 */
export function plainlyClean(text: string): boolean {
  // Only a \u escape can read as NUL or as half of a surrogate pair; any surrogate is walked.
  if (text.includes('\\u') || SURROGATE.test(text)) return false;
  // A number past a double has an exponent or 300 digits in a row.
  if (DIGITS_300.test(text) || hasExponent(text)) return false;
  // Fewer brackets in all than the levels the rule allows: the body is level 0, and its first bracket.
  let brackets = 0;
  for (const bracket of BRACKETS) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++brackets > MAX_JSON_DEPTH + 1) return false;
    }
  }
  return true;
}

/**
 * The one rule for every JSON body a client sends, checked right after parsing and before any
 * schema: objects and arrays nest at most MAX_JSON_DEPTH levels below the body (deeper values would
 * overflow the stack of whatever walks them next), numbers are finite (JSON.parse reads 1e309 as
 * Infinity, stored as null), and text holds neither NUL nor unpaired surrogates. Walked without
 * recursion; throws the first problem as a 400 naming its field.
 */
export function checkClientJson(body: unknown): void {
  if (body === null || typeof body !== 'object') return checkLeaf(body, []);
  // One frame per open object or array, not one record per value: a body of 300,000 small values
  // is walked in milliseconds, before anyone is known to have sent it.
  const frames: Frame[] = [];
  open(frames, '', body);
  while (frames.length > 0) {
    const top = frames[frames.length - 1]!;
    const { keys } = top;
    const count = keys ? keys.length : (top.value as unknown[]).length;
    if (top.next === count) {
      frames.pop();
      continue;
    }
    const index = top.next++;
    const key = keys ? keys[index]! : index;
    const child = (top.value as Record<string | number, unknown>)[key];
    if (child === null || typeof child !== 'object') {
      checkLeaf(child, frames, key);
    } else if (frames.length > MAX_JSON_DEPTH) {
      // The child sits at depth frames.length; the refusal names its top-level field.
      throw refuse(frames[1]!.key, `can nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep.`);
    } else {
      open(frames, String(key), child);
    }
  }
}
