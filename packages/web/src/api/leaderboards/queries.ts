import { leaderboardsResponse } from '@howl/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../client.js';
import { leaderboardKeys } from './keys.js';

/** The game's leaderboards, with engines and entry counts (GET /api/games/:gameId/leaderboards). */
export function useLeaderboards(gameId: string) {
  return useQuery({
    queryKey: leaderboardKeys.list(gameId),
    queryFn: async () => (await request(leaderboardsResponse, 'GET', `/api/games/${gameId}/leaderboards`)).leaderboards,
  });
}
