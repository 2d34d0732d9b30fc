import { scoresPage } from '@howl/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { request } from '../client.js';
import { scoreKeys } from './keys.js';

/** A board's scores of one period (0 current, -1 the one before…), in pages of 50. */
export function useScores(gameId: string, board: string, offset: number) {
  return useInfiniteQuery({
    queryKey: scoreKeys.period(gameId, board, offset),
    queryFn: ({ pageParam }) =>
      request(
        scoresPage,
        'GET',
        `/api/games/${gameId}/leaderboards/${encodeURIComponent(board)}/scores?period_offset=${offset}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.cursor ?? undefined,
  });
}
