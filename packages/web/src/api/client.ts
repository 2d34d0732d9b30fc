import type { ErrorCode } from '@howl/contract';

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

/** One console call: JSON in and out, the session cookie sent along, errors thrown as ApiError. */
export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
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
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) {
    const error = (json as { error?: { code: ErrorCode; message: string; field?: string } } | undefined)?.error;
    throw new ApiError(
      res.status,
      error?.code ?? 'InternalError',
      error?.message ?? 'Something went wrong.',
      error?.field,
    );
  }
  return json as T;
}

export const isApiError = (err: unknown, code?: string): err is ApiError =>
  err instanceof ApiError && (code === undefined || err.code === code);
