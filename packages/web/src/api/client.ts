import { errorResponse, withField, type ErrorCode } from '@howl/contract';
import type { z } from 'zod';

/** A failure the API answered with its error envelope, or a network failure (code `NetworkError`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NetworkError',
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * A successful answer that does not have the shape the contract gives it: the site and the server
 * disagree, so the page says so instead of rendering data it does not understand.
 */
export class ResponseShapeError extends Error {
  constructor(
    readonly call: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    const first = issues[0];
    super(
      `The server's answer to ${call} has an unexpected shape${first ? ` (${withField(first.path.join('.') || 'body', first.message)})` : ''}.`,
    );
    this.name = 'ResponseShapeError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The body as JSON; a body that is not JSON (say, a proxy's HTML page) reads as undefined, which no schema accepts. */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** Sends one console call with the session cookie; a failed answer throws its envelope as ApiError. */
async function send(method: Method, path: string, body?: unknown): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      // Console changes must be JSON (the server's CSRF rule), even without fields.
      headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
      ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
    });
  } catch {
    throw new ApiError(
      0,
      'NetworkError',
      'We could not reach the Howl server. Please check your connection and try again.',
    );
  }
  if (!res.ok) {
    const envelope = errorResponse.safeParse(parseJson(await res.text()));
    const error = envelope.success ? envelope.data.error : undefined;
    throw new ApiError(
      res.status,
      (error?.code as ErrorCode | undefined) ?? 'InternalError',
      error?.message ?? 'Something went wrong.',
      error?.field,
    );
  }
  return res;
}

/**
 * One console call, its answer parsed with the contract's schema: every API module calls the
 * server through here, so no page ever holds data of a shape it was not written for.
 *
 * @example const { leaderboards } = await request(leaderboardsResponse, 'GET', `/api/games/${gameId}/leaderboards`);
 */
export async function request<S extends z.ZodType>(
  schema: S,
  method: Method,
  path: string,
  body?: unknown,
): Promise<z.output<S>> {
  const res = await send(method, path, body);
  const text = await res.text();
  const parsed = schema.safeParse(parseJson(text));
  if (!parsed.success) {
    const error = new ResponseShapeError(`${method} ${path}`, parsed.error.issues);
    // Loud on purpose: a shape mismatch is a bug of the site or the server, never the user's doing.
    console.error(error.message, parsed.error.issues);
    throw error;
  }
  return parsed.data;
}

/** A download: the answer as a file, with the same error handling as `request`. */
export async function requestFile(path: string): Promise<Blob> {
  const res = await send('GET', path);
  try {
    return await res.blob();
  } catch {
    // The answer started and then broke off (the connection, or the server ending it: a game deleted meanwhile).
    throw new ApiError(
      0,
      'NetworkError',
      'The download stopped before the file was complete. Nothing was saved; please try again.',
    );
  }
}

export const isApiError = (err: unknown, code?: string): err is ApiError =>
  err instanceof ApiError && (code === undefined || err.code === code);
