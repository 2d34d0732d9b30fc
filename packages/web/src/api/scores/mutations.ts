import { deleteScoresResponse, type ScoreEntry, type ScoresPage } from '@howl/contract';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { request } from '../client.js';
import { leaderboardKeys } from '../leaderboards/keys.js';
import { scoreKeys } from './keys.js';

/**
 * Deletes one score: it leaves the board's loaded pages at once (no reload, so the pages already
 * opened stay), and the boards' entry counts refresh.
 */
export function useDeleteScore(gameId: string, board: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (score: ScoreEntry) =>
      request(deleteScoresResponse, 'POST', `/api/games/${gameId}/scores/delete`, { score_ids: [score.score_id] }),
    onSuccess: (_deleted, score) => {
      client.setQueriesData<InfiniteData<ScoresPage>>({ queryKey: scoreKeys.forBoard(gameId, board) }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((p) => ({ ...p, scores: p.scores.filter((s) => s.score_id !== score.score_id) })),
            }
          : data,
      );
      return client.invalidateQueries({ queryKey: leaderboardKeys.forGame(gameId) });
    },
  });
}
