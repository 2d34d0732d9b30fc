import { apiKeyResponse, createGameResponse, gameDetails, gamesResponse } from '@howl/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../client.js';
import { sessionKeys } from '../session/keys.js';
import { useSetGames } from '../session/mutations.js';
import { gameKeys } from './keys.js';

/** Creates a game (it becomes current) and refreshes the session's games. */
export function useCreateGame() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => request(createGameResponse, 'POST', '/api/games', { name }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

/**
 * Renames the game or changes whether game clients may delete; the cached settings follow the
 * answer, and the session's list of games is asked again so the switcher shows a new name.
 *
 * @example update.mutate({ allow_client_deletes: false })
 */
export function useUpdateGame(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { name?: string; allow_client_deletes?: boolean }) =>
      request(gameDetails, 'PATCH', `/api/games/${gameId}`, change),
    onSuccess: (game, change) => {
      client.setQueryData(gameKeys.details(gameId), game);
      if (change.name !== undefined) void client.invalidateQueries({ queryKey: sessionKeys.all });
    },
  });
}

/** Issues a new API key (the old one stops working at once); the cached key becomes the new one. */
export function useRotateApiKey(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(apiKeyResponse, 'POST', `/api/games/${gameId}/api-key/rotate`, {}),
    onSuccess: (key) => client.setQueryData(gameKeys.apiKey(gameId), key),
  });
}

/** Deletes a game with everything under it; the session's games follow the server's answer. */
export function useDeleteGame(gameId: string) {
  const client = useQueryClient();
  const setGames = useSetGames();
  return useMutation({
    mutationFn: () => request(gamesResponse, 'DELETE', `/api/games/${gameId}`),
    onSuccess: (games) => {
      setGames(games);
      // Every resource's keys name the game second (`forGame`), so this drops all the game's data.
      client.removeQueries({ predicate: (q) => q.queryKey[1] === gameId });
    },
  });
}
