import {
  playerAuthSettings,
  playerEmailSettings,
  type PlayerAuthSettings,
  type UpdatePlayerEmailBody,
} from '@howl/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../client.js';
import { playerAuthKeys } from './keys.js';

/** The changeable settings: a toggle sends just its own field, the others keep their values. */
export type PlayerAuthChange = Partial<PlayerAuthSettings>;

/**
 * Changes some settings (PUT with only those fields) and keeps the cached settings in step with
 * the server's answer. Each control uses its own mutation, so its progress and error are its own.
 *
 * @example update.mutate({ enabled: !settings.enabled })
 */
export function useUpdatePlayerAuth(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: PlayerAuthChange) =>
      request(playerAuthSettings, 'PUT', `/api/games/${gameId}/player-auth`, change),
    onSuccess: (settings) => client.setQueryData(playerAuthKeys.settings(gameId), settings),
  });
}

/** Saves the mails; `null` or `""` brings a field back to its default. Answers the mails as stored. */
export function useSavePlayerEmails(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdatePlayerEmailBody) =>
      request(playerEmailSettings, 'PUT', `/api/games/${gameId}/player-auth/emails`, body),
    onSuccess: (emails) => client.setQueryData(playerAuthKeys.emails(gameId), emails),
  });
}
