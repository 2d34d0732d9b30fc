import { playersPage } from '@howl/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { request } from '../client.js';
import { playerKeys } from './keys.js';

/** Players per dashboard page: small enough that "Load more players" shows on a busy game. */
const DASHBOARD_PLAYERS_PAGE = 25;

/** The game's players (accounts and data-only names), a page at a time. */
export function usePlayers(gameId: string) {
  return useInfiniteQuery({
    queryKey: playerKeys.list(gameId),
    queryFn: ({ pageParam }) =>
      request(
        playersPage,
        'GET',
        `/api/games/${gameId}/players?limit=${DASHBOARD_PLAYERS_PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.cursor ?? undefined,
  });
}
