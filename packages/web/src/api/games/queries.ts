import { apiKeyResponse } from '@howl/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../client.js';
import { gameKeys } from './keys.js';

/** The game's API key, fetched only when asked for (the View API key button). */
export function useApiKey(gameId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: gameKeys.apiKey(gameId ?? ''),
    queryFn: () => request(apiKeyResponse, 'GET', `/api/games/${gameId}/api-key`),
    enabled: enabled && gameId !== undefined,
    staleTime: Infinity,
  });
}
