/**
 * Query keys of the games, by layer: every game's, one game's, then its settings or its API key. The
 * list of the developer's games lives in the session (`sessionKeys`), which game changes refresh.
 *
 * @example client.removeQueries({ queryKey: gameKeys.forGame(gameId) })
 */
export const gameKeys = {
  all: ['games'] as const,
  forGame: (gameId: string) => [...gameKeys.all, gameId] as const,
  details: (gameId: string) => [...gameKeys.forGame(gameId), 'details'] as const,
  apiKey: (gameId: string) => [...gameKeys.forGame(gameId), 'api-key'] as const,
};
