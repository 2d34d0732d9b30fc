import { MAX_JSON_DEPTH } from '@howl/contract';
import { AppError } from './errors.js';

// With the u flag a surrogate pair is one code point, so only a lone half matches.
const UNPAIRED_SURROGATE = /\p{Cs}/u;

interface Node {
  value: unknown;
  /** 0 for the body itself; its fields are level 1. */
  depth: number;
  key: string;
  parent: Node | undefined;
}

/** `player_data.inv.0`: where a value sits in the body, from its top-level field down. */
function pathOf(node: Node): string {
  const keys: string[] = [];
  for (let n: Node | undefined = node; n?.parent; n = n.parent) keys.push(n.key);
  return keys.reverse().join('.');
}

function refuse(node: Node, problem: string): AppError {
  const field = pathOf(node);
  return new AppError(400, 'InvalidParameter', `${field || 'The request body'} ${problem}`, {
    ...(field ? { field } : {}),
  });
}

/** What neither database can store the same way: NUL (PostgreSQL refuses it) and unpaired surrogates. */
function checkText(node: Node, text: string): void {
  if (text.includes('\u0000')) throw refuse(node, 'cannot contain the NUL character.');
  if (UNPAIRED_SURROGATE.test(text)) throw refuse(node, 'is not well-formed Unicode text (an unpaired surrogate).');
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
  const stack: Node[] = [{ value: body, depth: 0, key: '', parent: undefined }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') checkText(node, value);
    else if (typeof value === 'number' && !Number.isFinite(value)) throw refuse(node, 'is too large a number.');
    else if (value !== null && typeof value === 'object') {
      if (node.depth > MAX_JSON_DEPTH) {
        let top = node;
        while (top.depth > 1) top = top.parent!;
        throw refuse(top, `can nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep.`);
      }
      for (const [key, child] of Object.entries(value)) {
        checkText(node, key);
        stack.push({ value: child, depth: node.depth + 1, key, parent: node });
      }
    }
  }
}
