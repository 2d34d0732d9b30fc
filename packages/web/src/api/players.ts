import {
  playerAuthSettings,
  playerEmailSettings,
  type PlayerAuthSettings,
  type PlayerEmailSettings,
  type UpdatePlayerEmailBody,
} from '@howl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.js';

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

/** The changeable settings: a toggle sends just its own field, the others keep their values. */
export type PlayerAuthChange = Partial<PlayerAuthSettings>;

/** The game's player authentication settings (GET /api/games/:gameId/player-auth). */
export function usePlayerAuthSettings(gameId: string) {
  return useQuery({
    queryKey: playerAuthKeys.settings(gameId),
    queryFn: async () => playerAuthSettings.parse(await api('GET', `/api/games/${gameId}/player-auth`)),
  });
}

/**
 * Changes some settings (PUT with only those fields) and keeps the cached settings in step with
 * the server's answer. Each control uses its own mutation, so its progress and error are its own.
 *
 * @example update.mutate({ enabled: !settings.enabled })
 */
export function useUpdatePlayerAuth(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: PlayerAuthChange) =>
      playerAuthSettings.parse(await api('PUT', `/api/games/${gameId}/player-auth`, change)),
    onSuccess: (settings) => client.setQueryData(playerAuthKeys.settings(gameId), settings),
  });
}

/** The players' confirmation and reset mails as they go out (GET …/player-auth/emails). */
export function usePlayerEmails(gameId: string) {
  return useQuery({
    queryKey: playerAuthKeys.emails(gameId),
    queryFn: async () => playerEmailSettings.parse(await api('GET', `/api/games/${gameId}/player-auth/emails`)),
  });
}

/** Saves the mails; `null` or `""` brings a field back to its default. Answers the mails as stored. */
export function useSavePlayerEmails(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdatePlayerEmailBody): Promise<PlayerEmailSettings> =>
      playerEmailSettings.parse(await api('PUT', `/api/games/${gameId}/player-auth/emails`, body)),
    onSuccess: (emails) => client.setQueryData(playerAuthKeys.emails(gameId), emails),
  });
}
