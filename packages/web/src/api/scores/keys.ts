/**
 * Query keys of the scores, by layer: every game's, one game's, one board's, then one period's
 * pages. Invalidate `forBoard` to refresh every period of a board.
 *
 * @example client.invalidateQueries({ queryKey: scoreKeys.forBoard(gameId, 'main') })
 */
export const scoreKeys = {
  all: ['scores'] as const,
  forGame: (gameId: string) => [...scoreKeys.all, gameId] as const,
  forBoard: (gameId: string, board: string) => [...scoreKeys.forGame(gameId), board] as const,
  period: (gameId: string, board: string, offset: number) => [...scoreKeys.forBoard(gameId, board), offset] as const,
};
