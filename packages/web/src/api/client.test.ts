import { leaderboardsResponse } from '@howl/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, request, requestFile, ResponseShapeError } from './client.js';

const answer = (status: number, body: string) =>
  vi.stubGlobal('fetch', async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('request', () => {
  it('answers the body parsed with the contract schema', async () => {
    answer(200, JSON.stringify({ leaderboards: [] }));
    await expect(request(leaderboardsResponse, 'GET', '/api/games/g1/leaderboards')).resolves.toEqual({
      leaderboards: [],
    });
  });

  it('throws, and logs, when a successful answer has another shape (an array for an object)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    answer(200, JSON.stringify([{ name: 'main' }]));
    const call = request(leaderboardsResponse, 'GET', '/api/games/g1/leaderboards');
    await expect(call).rejects.toBeInstanceOf(ResponseShapeError);
    await expect(call).rejects.toThrow("The server's answer to GET /api/games/g1/leaderboards has an unexpected shape");
    expect(logged).toHaveBeenCalled();
  });

  it("throws the error envelope's code, message and field as an ApiError", async () => {
    answer(400, JSON.stringify({ error: { code: 'InvalidParameter', message: 'Bad name.', field: 'name' } }));
    const error = await request(leaderboardsResponse, 'POST', '/api/games/g1/leaderboards').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'InvalidParameter', message: 'Bad name.', field: 'name' });
  });

  it('turns a failure without an envelope into InternalError', async () => {
    answer(502, '<html>Bad gateway</html>');
    await expect(request(leaderboardsResponse, 'GET', '/x')).rejects.toMatchObject({
      status: 502,
      code: 'InternalError',
      message: 'Something went wrong.',
    });
  });

  it('turns an unreachable server into NetworkError', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(request(leaderboardsResponse, 'GET', '/x')).rejects.toMatchObject({ status: 0, code: 'NetworkError' });
  });
});

describe('requestFile', () => {
  it('says a download that broke off part way was not saved, rather than in the words of the browser', async () => {
    // A body that starts, then fails: what a server ending the answer early looks like to fetch.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"players":['));
        controller.error(new TypeError('network error'));
      },
    });
    vi.stubGlobal('fetch', async () => new Response(body, { status: 200 }));
    await expect(requestFile('/api/games/g1/player-data/export')).rejects.toMatchObject({
      code: 'NetworkError',
      message: 'The download stopped before the file was complete. Nothing was saved; please try again.',
    });
  });
});
