import { deleteScoresResponse, type ScoreEntry, type ScoresPage } from '@howl/contract';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { request } from '../client.js';
import { leaderboardKeys } from '../leaderboards/keys.js';
import { scoreKeys } from './keys.js';

/** The loaded pages without `score`, every score below it a place higher; pages of other periods as they were. */
function withoutScore(data: InfiniteData<ScoresPage>, score: ScoreEntry): InfiniteData<ScoresPage> {
  // The position as these pages hold it, not as the dialog saw it when it opened.
  const held = data.pages.flatMap((p) => p.scores).find((s) => s.score_id === score.score_id);
  if (!held) return data;
  return {
    ...data,
    pages: data.pages.map((p) => ({
      ...p,
      scores: p.scores
        .filter((s) => s.score_id !== held.score_id)
        .map((s) => (s.position > held.position ? { ...s, position: s.position - 1 } : s)),
    })),
  };
}

/**
 * Deletes one score: it leaves the board's loaded pages at once and the scores below move up a
 * place. Those pages are then read again without holding the dialog (the pages opened stay open),
 * so their cursors, which carry positions, follow; the boards' entry counts refresh.
 */
export function useDeleteScore(gameId: string, board: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (score: ScoreEntry) =>
      request(deleteScoresResponse, 'POST', `/api/games/${gameId}/scores/delete`, { score_ids: [score.score_id] }),
    onSuccess: (_deleted, score) => {
      client.setQueriesData<InfiniteData<ScoresPage>>({ queryKey: scoreKeys.forBoard(gameId, board) }, (data) =>
        data ? withoutScore(data, score) : data,
      );
      void client.invalidateQueries({ queryKey: scoreKeys.forBoard(gameId, board) });
      return client.invalidateQueries({ queryKey: leaderboardKeys.forGame(gameId) });
    },
  });
}
