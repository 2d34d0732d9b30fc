import { whoamiResponse } from '@howl/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../client.js';
import { sessionKeys } from './keys.js';

/** The signed-in developer with their games, or null when signed out. Restored from the cookie on reload. */
export function useSession() {
  return useQuery({
    queryKey: sessionKeys.all,
    // whoami answers null when signed out, so a visitor's page load logs no failed request.
    queryFn: async () => (await request(whoamiResponse, 'GET', '/api/auth/whoami')).session,
    staleTime: 60_000,
    retry: false,
  });
}

/** The current game of the signed-in developer, if any. */
export function useCurrentGame() {
  const { data } = useSession();
  if (!data?.current_game_id) return undefined;
  return data.games.find((g) => g.game_id === data.current_game_id);
}
