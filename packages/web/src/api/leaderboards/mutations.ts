import { leaderboard, okResponse, type Leaderboard, type UpdateLeaderboardBody } from '@howl/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../client.js';
import { scoreKeys } from '../scores/keys.js';
import { leaderboardKeys } from './keys.js';

/** A new board is created (POST); a saved one is updated by name (PUT), its name fixed. */
export type SaveLeaderboard =
  | { isNew: true; body: { name: string } & UpdateLeaderboardBody }
  | { isNew: false; name: string; body: UpdateLeaderboardBody };

const boardPath = (gameId: string, name: string) => `/api/games/${gameId}/leaderboards/${encodeURIComponent(name)}`;

/**
 * Saves one leaderboard's configuration and refreshes the game's boards and that board's scores (a
 * new order or size re-ranks and trims them). Answers the board as the server stored it (its display
 * name falls back to the name when left empty).
 */
export function useSaveLeaderboard(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (save: SaveLeaderboard): Promise<Leaderboard> =>
      save.isNew
        ? request(leaderboard, 'POST', `/api/games/${gameId}/leaderboards`, save.body)
        : request(leaderboard, 'PUT', boardPath(gameId, save.name), save.body),
    onSuccess: (board) =>
      Promise.all([
        client.invalidateQueries({ queryKey: scoreKeys.forBoard(gameId, board.name) }),
        client.invalidateQueries({ queryKey: leaderboardKeys.forGame(gameId) }),
      ]),
  });
}

/** Deletes every score of a board, in every period; its pages of scores and its entry count refresh. */
export function useWipeLeaderboard(gameId: string, board: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(okResponse, 'DELETE', `${boardPath(gameId, board)}/scores`),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: scoreKeys.forBoard(gameId, board) }),
        client.invalidateQueries({ queryKey: leaderboardKeys.forGame(gameId) }),
      ]),
  });
}

/** Deletes a board with its scores; the game's boards refresh and the board's cached scores are dropped. */
export function useDeleteLeaderboard(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => request(okResponse, 'DELETE', boardPath(gameId, name)),
    onSuccess: (_ok, name) => {
      client.removeQueries({ queryKey: scoreKeys.forBoard(gameId, name) });
      return client.invalidateQueries({ queryKey: leaderboardKeys.forGame(gameId) });
    },
  });
}
