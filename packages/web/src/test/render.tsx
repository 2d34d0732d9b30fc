import type { DeveloperSession } from '@howl/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { sessionKeys } from '../api/session/keys.js';

/** A query client for one test: no retries, so a failed answer shows at once. */
function testQueryClient({ staleTime }: { staleTime?: number } = {}) {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, ...(staleTime === undefined ? {} : { staleTime }) },
      mutations: { retry: false },
    },
  });
}

/**
 * Renders a component inside a fresh query client and an in-memory router at `path`. With `session`,
 * the session is already in the cache (with `staleTime: Infinity` nothing is then fetched for it).
 */
export function renderWithProviders(
  ui: ReactNode,
  { path = '/', session, staleTime }: { path?: string; session?: DeveloperSession | null; staleTime?: number } = {},
) {
  const client = testQueryClient({ staleTime });
  if (session !== undefined) client.setQueryData(sessionKeys.all, session);
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}

/** Shows where the router is, so a test can see a navigation happen. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

/** Renders a page at a path among routes, with the router's location shown (`where`). */
export function renderAt(path: string, routes: Record<string, ReactNode>) {
  return renderWithProviders(
    <>
      <Where />
      <Routes>
        {Object.entries(routes).map(([p, element]) => (
          <Route key={p} path={p} element={element} />
        ))}
      </Routes>
    </>,
    { path },
  );
}
