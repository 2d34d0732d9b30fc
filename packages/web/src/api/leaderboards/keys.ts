/**
 * Query keys of the leaderboards, by layer: every game's, one game's, then its list. Invalidate a
 * prefix to refresh everything under it; the guide's form and the Scores dashboard read one list.
 *
 * @example client.invalidateQueries({ queryKey: leaderboardKeys.forGame(gameId) })
 */
export const leaderboardKeys = {
  all: ['leaderboards'] as const,
  forGame: (gameId: string) => [...leaderboardKeys.all, gameId] as const,
  list: (gameId: string) => [...leaderboardKeys.forGame(gameId), 'list'] as const,
};
