import { playerAuthSettings, playerEmailSettings } from '@howl/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../client.js';
import { playerAuthKeys } from './keys.js';

/** The game's player authentication settings (GET /api/games/:gameId/player-auth). */
export function usePlayerAuthSettings(gameId: string) {
  return useQuery({
    queryKey: playerAuthKeys.settings(gameId),
    queryFn: () => request(playerAuthSettings, 'GET', `/api/games/${gameId}/player-auth`),
  });
}

/** The players' confirmation and reset mails as they go out (GET …/player-auth/emails). */
export function usePlayerEmails(gameId: string) {
  return useQuery({
    queryKey: playerAuthKeys.emails(gameId),
    queryFn: () => request(playerEmailSettings, 'GET', `/api/games/${gameId}/player-auth/emails`),
  });
}
