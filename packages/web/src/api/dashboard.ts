import type { LeaderboardsResponse, PlayerAuthSettings, PlayersPage, ScoresPageBody } from './dashboard-types.js';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from './client.js';

/** Players per dashboard page: small enough that "Load more players" shows on a busy game. */
export const DASHBOARD_PLAYERS_PAGE = 25;

export const playersKey = (gameId: string) => ['players', gameId] as const;

export function usePlayers(gameId: string) {
  return useInfiniteQuery({
    queryKey: playersKey(gameId),
    queryFn: ({ pageParam }) =>
      api<PlayersPage>(
        'GET',
        `/api/games/${gameId}/players?limit=${DASHBOARD_PLAYERS_PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.cursor ?? undefined,
  });
}

export function usePlayerAuthSettings(gameId: string) {
  return useQuery({
    queryKey: ['player-auth', gameId],
    queryFn: () => api<PlayerAuthSettings>('GET', `/api/games/${gameId}/player-auth`),
  });
}

export function useLeaderboards(gameId: string) {
  return useQuery({
    queryKey: ['leaderboards', gameId],
    queryFn: () => api<LeaderboardsResponse>('GET', `/api/games/${gameId}/leaderboards`),
  });
}

export const scoresKey = (gameId: string, board: string, offset: number) => ['scores', gameId, board, offset] as const;

/** A board's scores in pages of 50, loaded when its row is opened. */
export function useScores(gameId: string, board: string, offset: number, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: scoresKey(gameId, board, offset),
    queryFn: ({ pageParam }) =>
      api<ScoresPageBody>(
        'GET',
        `/api/games/${gameId}/leaderboards/${encodeURIComponent(board)}/scores?period_offset=${offset}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.cursor ?? undefined,
    enabled,
  });
}
