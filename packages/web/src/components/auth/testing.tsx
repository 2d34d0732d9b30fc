import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';

type Answer = [status: number, body: unknown] | ((body: unknown) => [status: number, body: unknown]);

/**
 * A stand-in for the server in component tests: the real one runs outside a component test, so
 * `fetch` is stubbed with answers per "METHOD /path". Each call is recorded with its JSON body.
 * An answer given as a list is used once per call, in order (the last one repeats).
 */
export function stubServer(routes: Record<string, Answer | Answer[]>) {
  const calls: { route: string; body: unknown }[] = [];
  const used: Record<string, number> = {};
  const fetchStub = vi.fn(async (path: string, init?: RequestInit) => {
    const route = `${init?.method ?? 'GET'} ${path}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ route, body });
    const entry = routes[route];
    if (!entry) throw new Error(`No stubbed answer for ${route}`);
    const list = Array.isArray(entry) && typeof entry[0] !== 'number' ? (entry as Answer[]) : [entry as Answer];
    const n = used[route] ?? 0;
    used[route] = n + 1;
    const answer = list[Math.min(n, list.length - 1)]!;
    const [status, json] = typeof answer === 'function' ? answer(body) : answer;
    return { ok: status < 400, status, text: async () => JSON.stringify(json) } as Response;
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, bodiesOf: (route: string) => calls.filter((c) => c.route === route).map((c) => c.body) };
}

export const apiError = (status: number, code: string, message = `server says ${code}`): [number, unknown] => [
  status,
  { error: { code, message } },
];

export const session = {
  email: 'indie@example.com',
  firstName: 'Indie',
  lastName: 'Player',
  company: null,
  games: [],
  current_game_id: null,
};

/** Shows where the router is, so a test can see a navigation happen. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

/** Renders a page at a path inside a fresh query client and an in-memory router. */
export function renderAt(path: string, routes: Record<string, ReactNode>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Where />
        <Routes>
          {Object.entries(routes).map(([p, element]) => (
            <Route key={p} path={p} element={element} />
          ))}
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}
