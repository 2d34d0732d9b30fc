import { vi } from 'vitest';

/** A JSON answer as the server sends it, for the stand-ins of `fetch` that build their own answers. */
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

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
