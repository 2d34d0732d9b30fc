import type { CreateGameResponseBody } from './types.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.js';
import { SESSION_KEY } from './session.js';

/** Creates a game (it becomes current) and refreshes the session's games. */
export function useCreateGame() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<CreateGameResponseBody>('POST', '/api/games', { name }),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSION_KEY }),
  });
}

/** The game's API key, fetched only when asked for (the View API key button). */
export function useApiKey(gameId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['api-key', gameId],
    queryFn: () => api<{ api_key: string }>('GET', `/api/games/${gameId}/api-key`),
    enabled: enabled && gameId !== undefined,
    staleTime: Infinity,
  });
}
