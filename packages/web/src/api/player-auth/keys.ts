/**
 * Query keys of a game's player authentication, by layer: everything, one game, then its settings
 * or its mails. Invalidate `forGame(gameId)` to refresh both.
 *
 * @example client.invalidateQueries({ queryKey: playerAuthKeys.forGame(gameId) })
 */
export const playerAuthKeys = {
  all: ['player-auth'] as const,
  forGame: (gameId: string) => [...playerAuthKeys.all, gameId] as const,
  settings: (gameId: string) => [...playerAuthKeys.forGame(gameId), 'settings'] as const,
  emails: (gameId: string) => [...playerAuthKeys.forGame(gameId), 'emails'] as const,
};
