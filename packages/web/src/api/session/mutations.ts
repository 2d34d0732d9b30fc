import { gamesResponse, okResponse, type DeveloperSession, type GamesResponse } from '@howl/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError, request } from '../client.js';
import { sessionKeys } from './keys.js';

/** Keeps the session's games in step with an answer that lists them. */
export function useSetGames() {
  const client = useQueryClient();
  return (games: GamesResponse) =>
    client.setQueryData<DeveloperSession | null>(sessionKeys.all, (s) => (s ? { ...s, ...games } : s));
}

/** A new session (or none) replaces the old one; data cached for another developer goes. */
export function useReplaceSession() {
  const client = useQueryClient();
  return (session: DeveloperSession | null) => {
    client.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKeys.all[0] });
    client.setQueryData(sessionKeys.all, session);
  };
}

/** Makes another of the developer's games the current one. */
export function useSwitchGame() {
  const setGames = useSetGames();
  return useMutation({
    mutationFn: (gameId: string) => request(gamesResponse, 'PUT', '/api/games/current', { game_id: gameId }),
    onSuccess: setGames,
  });
}

/**
 * Ends the session everywhere; a session that is already gone counts as signed out. Any other
 * failure leaves the developer signed in, and says so: only the server can end the cookie's
 * session, so a page that only looked signed out would sign the next person at the machine back in.
 */
export function useSignOut() {
  const replace = useReplaceSession();
  return useMutation({
    mutationFn: async () => {
      try {
        await request(okResponse, 'POST', '/api/auth/sign-out');
      } catch (err) {
        if (!isApiError(err, 'NotAuthorized')) throw err;
      }
    },
    onSuccess: () => {
      sessionStorage.clear();
      replace(null);
    },
  });
}
