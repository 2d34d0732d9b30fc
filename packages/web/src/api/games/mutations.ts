import { createGameResponse, gamesResponse } from '@howl/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../client.js';
import { sessionKeys } from '../session/keys.js';
import { useSetGames } from '../session/mutations.js';

/** Creates a game (it becomes current) and refreshes the session's games. */
export function useCreateGame() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => request(createGameResponse, 'POST', '/api/games', { name }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.all }),
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
