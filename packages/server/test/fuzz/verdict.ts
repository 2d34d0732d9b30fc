import { isSilentWolfPath } from '../../src/modules/compat-silentwolf/front-door.js';
import type { Answer, Sent } from './send.js';

/** No request may cost more than this. */
export const SLOW_MS = 1000;

/** What an answer must never show: stack frames, source paths, database error text. */
const INTERNALS: RegExp[] = [
  /^\s+at \S/m,
  /\bat (?:async )?[\w.<>$]+ \([^)]*:\d+:\d+\)/,
  /node_modules/,
  /(?:\/[\w.-]+)+\.(?:ts|js|mjs|cjs):\d+/,
  /SQLITE_[A-Z]+/,
  /\bsyntax error at or near\b/,
  /\bviolates (?:unique|foreign key|not-null|check) constraint\b/,
  /\bduplicate key value\b/,
  /\binvalid input syntax for\b/,
  /\bout of range for type\b/,
  /\bvalue too long for type\b/,
  /\binvalid byte sequence for encoding\b/,
  /\bcurrent transaction is aborted\b/,
  /\bselect\s+[\w"*,\s.()]+\s+from\s+"?\w/i,
  /\binsert\s+into\s+"?\w/i,
  /\bKysely\b|better-sqlite3|\bECONNREFUSED\b/,
];

const ENVELOPE_KEYS = new Set(['code', 'message', 'field', 'current_version']);
const SILENTWOLF_KEYS = new Set(['success', 'error', 'code', 'message']);

/** Routes that answer a person's browser with a small HTML page, errors included (links from mails). */
const HTML_PAGES = /^\/api\/newsletter\/(confirm|unsubscribe)(\?|$)/;

/** Everything wrong with an answer, in words; empty when it is fine. */
export function problemsOf(sent: Sent, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`answered ${answer.status}`);
  if (answer.ms > SLOW_MS) problems.push(`took ${Math.round(answer.ms)} ms`);
  const asked = `${sent.url}\n${sent.payload?.toString('utf8') ?? ''}`;
  for (const pattern of INTERNALS) {
    const found = pattern.exec(answer.body)?.[0];
    // A request's own text may come back (a stored name, an unknown path): only what it did not send counts.
    if (found && !asked.includes(found)) problems.push(`shows internal detail ${JSON.stringify(found)}`);
  }
  if (answer.status >= 400) problems.push(...envelopeProblems(sent, answer));
  return problems;
}

function envelopeProblems(sent: Sent, answer: Answer): string[] {
  if (sent.method === 'HEAD' && answer.body === '') return [];
  const type = String(answer.headers['content-type'] ?? '');
  if (HTML_PAGES.test(sent.url) && answer.status === 400 && type.startsWith('text/html')) return [];
  if (!type.startsWith('application/json')) return [`error answered as ${type || 'no content type'}`];
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return ['error body is not JSON'];
  }
  const record = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isSilentWolfPath(sent.url)) {
    const ok =
      record(body) &&
      body.success === false &&
      typeof body.error === 'string' &&
      typeof body.code === 'string' &&
      Object.keys(body).every((k) => SILENTWOLF_KEYS.has(k));
    // Paths the adapter serves answer in its shape; a method it does not serve gets the site's 404.
    if (ok) return [];
  }
  const error = record(body) && Object.keys(body).length === 1 ? body.error : undefined;
  const ok =
    record(error) &&
    typeof error.code === 'string' &&
    /^[A-Z][A-Za-z]+$/.test(error.code) &&
    typeof error.message === 'string' &&
    error.message !== '' &&
    (error.field === undefined || typeof error.field === 'string') &&
    Object.keys(error).every((k) => ENVELOPE_KEYS.has(k));
  return ok ? [] : ['error outside the envelope { error: { code, message, field? } }'];
}
