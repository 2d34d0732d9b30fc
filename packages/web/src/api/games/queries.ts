import { apiKeyResponse, gameDetails } from '@howl/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../client.js';
import { gameKeys } from './keys.js';

/** The game and its settings: name, client deletes, the plugin and engine versions last seen. */
export function useGameDetails(gameId: string) {
  return useQuery({
    queryKey: gameKeys.details(gameId),
    queryFn: () => request(gameDetails, 'GET', `/api/games/${gameId}`),
  });
}

/** The game's API key, fetched only when asked for (the View API key button). */
export function useApiKey(gameId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: gameKeys.apiKey(gameId ?? ''),
    queryFn: () => request(apiKeyResponse, 'GET', `/api/games/${gameId}/api-key`),
    enabled: enabled && gameId !== undefined,
    staleTime: Infinity,
  });
}
