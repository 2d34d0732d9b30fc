/**
 * Query keys of a game's players, by layer: every game's, one game's, then its list in pages.
 *
 * @example client.invalidateQueries({ queryKey: playerKeys.forGame(gameId) })
 */
export const playerKeys = {
  all: ['players'] as const,
  forGame: (gameId: string) => [...playerKeys.all, gameId] as const,
  list: (gameId: string) => [...playerKeys.forGame(gameId), 'list'] as const,
};
