import type { DeveloperSession, GamesResponse } from '@howl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from './client.js';

export const SESSION_KEY = ['session'] as const;

/** The signed-in developer with their games, or null when signed out. Restored from the cookie on reload. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    // whoami answers null when signed out, so a visitor's page load logs no failed request.
    queryFn: async () => (await api<{ session: DeveloperSession | null }>('GET', '/api/auth/whoami')).session,
    staleTime: 60_000,
    retry: false,
  });
}

/** The current game of the signed-in developer, if any. */
export function useCurrentGame() {
  const { data } = useSession();
  if (!data?.current_game_id) return undefined;
  return data.games.find((g) => g.game_id === data.current_game_id);
}

/** Keeps the session's games in step with an answer that lists them. */
export function useSetGames() {
  const client = useQueryClient();
  return (games: GamesResponse) =>
    client.setQueryData<DeveloperSession | null>(SESSION_KEY, (s) => (s ? { ...s, ...games } : s));
}

export function useSwitchGame() {
  const setGames = useSetGames();
  return useMutation({
    mutationFn: (gameId: string) => api<GamesResponse>('PUT', '/api/games/current', { game_id: gameId }),
    onSuccess: setGames,
  });
}

/** Ends the session everywhere; a session that is already gone counts as signed out. */
export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await api('POST', '/api/auth/sign-out');
      } catch (err) {
        if (!isApiError(err, 'NotAuthorized')) throw err;
      }
    },
    onSettled: () => {
      sessionStorage.clear();
      client.setQueryData(SESSION_KEY, null);
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
    },
  });
}
