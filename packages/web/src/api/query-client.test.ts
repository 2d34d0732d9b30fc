import { leaderboardsResponse, whoamiResponse } from '@howl/contract';
import { QueryObserver } from '@tanstack/react-query';
import { afterEach, expect, it, vi } from 'vitest';
import { json } from '../test/server.js';
import { request } from './client.js';
import { createQueryClient } from './query-client.js';
import { sessionKeys } from './session/keys.js';

afterEach(() => vi.unstubAllGlobals());

/** A fetch stand-in: whoami answers `session`; the boards answer `status`. Counts each path's calls. */
function serve(status: number, session: unknown) {
  const calls: Record<string, number> = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string) => {
      calls[path] = (calls[path] ?? 0) + 1;
      if (path === '/api/auth/whoami') return json({ session });
      return status === 200
        ? json({ leaderboards: [] })
        : json({ error: { code: status === 401 ? 'NotAuthorized' : 'InternalError', message: 'No.' } }, status);
    }),
  );
  return calls;
}

const boards = (client: ReturnType<typeof createQueryClient>) =>
  client
    .fetchQuery({
      queryKey: ['boards'],
      queryFn: () => request(leaderboardsResponse, 'GET', '/api/games/g1/leaderboards'),
      retryDelay: 1,
    })
    .catch((e: unknown) => e);

it('takes a 401 for a session that ended: no retry, and the session is asked for again', async () => {
  const client = createQueryClient();
  client.setQueryData(sessionKeys.all, { developer: 'someone' });
  // The header watches the session, as useSession does.
  const watching = new QueryObserver(client, {
    queryKey: sessionKeys.all,
    queryFn: async () => (await request(whoamiResponse, 'GET', '/api/auth/whoami')).session,
    staleTime: 60_000,
  }).subscribe(() => {});
  const calls = serve(401, null);
  expect(await boards(client)).toMatchObject({ status: 401 });
  expect(calls['/api/games/g1/leaderboards']).toBe(1);
  await vi.waitFor(() => expect(client.getQueryData(sessionKeys.all)).toBeNull());
  expect(calls['/api/auth/whoami']).toBe(1);
  watching();
});

it('tries a server failure again, and leaves the session alone', async () => {
  const client = createQueryClient();
  const calls = serve(503, null);
  expect(await boards(client)).toMatchObject({ status: 503 });
  expect(calls['/api/games/g1/leaderboards']).toBe(4);
  expect(calls['/api/auth/whoami']).toBeUndefined();
});
