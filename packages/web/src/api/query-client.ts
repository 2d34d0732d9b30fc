import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './client.js';
import { sessionKeys } from './session/keys.js';

/** Answers a retry would not change: the request itself was refused (4xx). Network and server failures are tried again. */
const refused = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

/**
 * The site's query client. A 401 from any console call means the session ended (signed out in
 * another tab, expired): the session is asked for again, so every page shows the signed-out state
 * at once instead of its loading text or an error.
 */
export function createQueryClient(): QueryClient {
  const signedOut = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) void client.invalidateQueries({ queryKey: sessionKeys.all });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: signedOut }),
    mutationCache: new MutationCache({ onError: signedOut }),
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: (failures, error) => !refused(error) && failures < 3 },
    },
  });
  return client;
}
