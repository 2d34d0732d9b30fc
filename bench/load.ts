import { Agent, request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import { DATA_PLAYERS, MODES, playerDoc, seededScoreId } from './seed.js';

export interface Call {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
}

export interface Path {
  name: string;
  request: () => Call;
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
}

const rand = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: readonly T[]) => xs[rand(xs.length)]!;

const submits: Path[] = MODES.map((mode) => ({
  name: `submit (${mode})`,
  request: () => ({
    method: 'POST',
    path: `/v1/leaderboards/${mode}/scores`,
    body: JSON.stringify({ player_name: `p${rand(100_000)}`, score: rand(1_000_003) }),
  }),
}));
const reads: Path[] = [
  { name: 'top 10', request: () => ({ method: 'GET', path: '/v1/leaderboards/keep/scores?max=10' }) },
  { name: 'top 100', request: () => ({ method: 'GET', path: '/v1/leaderboards/keep/scores?max=100' }) },
  {
    name: 'position',
    request: () => ({ method: 'GET', path: `/v1/leaderboards/keep/position?score=${rand(1_000_003)}` }),
  },
  {
    name: 'around (k=3)',
    request: () => ({ method: 'GET', path: `/v1/leaderboards/keep/around?score=${rand(1_000_003)}&count=3` }),
  },
  {
    name: 'player scores',
    request: () => ({ method: 'GET', path: `/v1/leaderboards/keep/players/player${rand(50_000)}/scores` }),
  },
];
const playerData: Path[] = [
  {
    name: 'player data get (1 KB)',
    request: () => ({ method: 'GET', path: `/v1/player-data/pd${rand(DATA_PLAYERS)}` }),
  },
  {
    name: 'player data put (1 KB)',
    request: () => {
      const n = rand(DATA_PLAYERS);
      return { method: 'PUT', path: `/v1/player-data/pd${n}`, body: JSON.stringify({ player_data: playerDoc(n) }) };
    },
  },
];

/** What a game sends in one stretch of play: 70 % leaderboard reads, 20 % submits, 10 % player data. */
export const MIXED: Path = {
  name: 'mixed (70/20/10)',
  request: () => {
    const r = Math.random();
    return (r < 0.7 ? pick(reads) : r < 0.9 ? pick(submits) : pick(playerData)).request();
  },
};

/** Every path alone, then the mix; the burst probes every path but the mix. */
export const PATHS: Path[] = [
  ...submits,
  ...reads,
  { name: 'ping', request: () => ({ method: 'GET', path: '/v1/ping' }) },
  // A saved score's position, asked by its id (one of the 10,000 every size seeds).
  {
    name: 'position (score id)',
    request: () => ({ method: 'GET', path: `/v1/leaderboards/keep/position?score_id=${seededScoreId(rand(10_000))}` }),
  },
  ...playerData,
  MIXED,
];
export const SUBMITS = submits;

/** What the bare baseline does for the same call: reads get `GET /hello`, writes echo the same body. */
export const baselineOf = (request: () => Call) => (): Call => {
  const call = request();
  return call.method === 'GET' ? { method: 'GET', path: '/hello' } : { method: 'POST', path: '/echo', body: call.body };
};

/** autocannon's options for 10 clients sending `request()` calls as fast as they can for `seconds`. */
export function cannon(
  base: string,
  request: () => Call,
  headers: Record<string, string>,
  seconds: number,
): autocannon.Options {
  return {
    url: base,
    connections: 10,
    duration: seconds,
    requests: [
      {
        method: request().method,
        setupRequest: (req) => {
          const next = request();
          return {
            ...req,
            method: next.method,
            path: next.path,
            headers: { ...req.headers, ...headers, ...(next.body ? { 'content-type': 'application/json' } : {}) },
            ...(next.body ? { body: next.body } : {}),
          };
        },
      },
    ],
  };
}

/** Any answer but 2xx fails the bench. */
export function check(what: string, result: Pick<autocannon.Result, 'non2xx' | 'errors' | 'statusCodeStats'>) {
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `${what}: ${result.non2xx} non-2xx answers, ${result.errors} errors ${JSON.stringify(result.statusCodeStats)}`,
    );
}

export async function drive(
  base: string,
  request: () => Call,
  headers: Record<string, string>,
  seconds: number,
): Promise<Load> {
  const result = await autocannon(cannon(base, request, headers, seconds));
  const first = request();
  check(`${first.method} ${first.path}`, result);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const PROBE_INTERVAL_MS = 50;

/**
 * One client per path, one call every 50 ms for `ms`, timed with sub-millisecond resolution (autocannon
 * counts whole milliseconds). Answers each path's latencies, sorted.
 */
export async function probe(
  base: string,
  paths: Path[],
  headers: Record<string, string>,
  ms: number,
): Promise<Map<string, number[]>> {
  const end = performance.now() + ms;
  const out = new Map<string, number[]>();
  await Promise.all(
    paths.map(async (path) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const times: number[] = [];
      // Spread the paths over the interval so they do not all arrive at once.
      await sleep(Math.random() * PROBE_INTERVAL_MS);
      while (performance.now() < end) {
        const t0 = performance.now();
        await call(base, path.request(), headers, agent);
        times.push(performance.now() - t0);
        await sleep(Math.max(0, PROBE_INTERVAL_MS - (performance.now() - t0)));
      }
      agent.destroy();
      out.set(
        path.name,
        times.sort((a, b) => a - b),
      );
    }),
  );
  return out;
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function call(base: string, c: Call, headers: Record<string, string>, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${c.path}`,
      {
        method: c.method,
        agent,
        headers: { ...headers, ...(c.body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          res.statusCode! >= 200 && res.statusCode! < 300
            ? resolve()
            : reject(new Error(`${c.method} ${c.path}: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(c.body);
  });
}
