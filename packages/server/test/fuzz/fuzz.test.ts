import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/services.js';
import { Fixtures } from './fixtures.js';
import { draftArbitrary, operationsOf, type Operation } from './requests.js';
import type { Resolve } from './schema-arbitrary.js';
import { build, inject, overSocket, type Answer, type Sent } from './send.js';
import { Tally } from './tally.js';
import { problemsOf } from './verdict.js';

/** Requests per dialect (FUZZ_REQUESTS), the seed to replay (FUZZ_SEED); `npm run fuzz` sends many more. */
const REQUESTS = Number(process.env.FUZZ_REQUESTS || 10_000);
const SEED = Number(process.env.FUZZ_SEED || Math.floor(Math.random() * 2 ** 31));
/** Requests sent at once. */
const BATCH = 8;
/** One request in this many goes over a real socket, through Node's HTTP parser. */
const SOCKET_EVERY = 8;
/** Share of schema values swapped for hostile ones. */
const HOSTILITY = 0.3;

// Limits high enough that the fuzzer reaches the routes; the last suite keeps the defaults.
const HIGH = '1000000000';
const HIGH_LIMITS = Object.fromEntries(
  [
    'SIGNIN_FAILURES_PER_ACCOUNT',
    'SIGNIN_FAILURES_PER_IP',
    'AUTH_REQUESTS_PER_IP_PER_MINUTE',
    'CODE_MAILS_PER_ACCOUNT_PER_HOUR',
    'GAME_API_REQUESTS_PER_KEY_PER_MINUTE',
    'GAME_API_REQUESTS_PER_IP_PER_MINUTE',
    'CONTACT_REQUESTS_PER_IP_PER_HOUR',
  ].map((name) => [name, HIGH]),
);

/** Routes that hash a password (about 0.1 s each) get a smaller share so the run stays short. */
const HASHING = /sign-up|sign-in|password|\/v1\/players(\/login)?$|create_new_player|login_player|reset_player/;

async function openApi(t: TestApp): Promise<{ operations: Operation[]; resolve: Resolve }> {
  const doc = await t.app.inject({ url: '/api/openapi.json' });
  return operationsOf(doc.json());
}

function describeFailure(sent: Sent, answer: Answer, problems: string[]): string {
  return [
    `${sent.method} ${sent.url.slice(0, 300)} → ${answer.status}: ${problems.join('; ')}`,
    `headers: ${JSON.stringify(sent.headers).slice(0, 300)}`,
    `body sent: ${sent.payload?.toString('utf8').slice(0, 300) ?? '(none)'}`,
    `answer: ${answer.body.slice(0, 500)}`,
    `replay: FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS}`,
  ].join('\n');
}

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: every route of /api/openapi.json under generated and hostile requests`, () => {
    let t: TestApp;
    let port: number;
    let fixtures: Fixtures;
    let api: { operations: Operation[]; resolve: Resolve };
    beforeAll(async () => {
      t = await startTestApp({ dialect, env: HIGH_LIMITS });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
      fixtures = await Fixtures.create(t);
      api = await openApi(t);
    });
    afterAll(() => t?.close());

    /** Sends one request (over the socket or injected) and answers what is wrong with its answer. */
    async function exchange(sent: Sent, socket: boolean): Promise<{ answer: Answer; problems: string[] }> {
      const answer = await (socket ? overSocket(port, sent) : inject(t.app, sent));
      return { answer, problems: problemsOf(sent, answer) };
    }

    /** Slowness is measured again alone: its batch, or another process on the machine, may have held it up. */
    async function again(sent: Sent, socket: boolean, first: { answer: Answer; problems: string[] }) {
      const onlySlow = first.problems.length === 1 && first.problems[0]!.startsWith('took ');
      return onlySlow ? exchange(sent, socket) : first;
    }

    it('the document lists the routes of every part of the API', () => {
      const paths = new Set(api.operations.map((op) => op.path));
      for (const path of [
        '/api/games/{gameId}/import',
        '/v1/leaderboards/{name}/scores',
        '/v1/players/me',
        '/login_player',
      ]) {
        expect(paths).toContain(path);
      }
    });

    it(
      `answers ${REQUESTS} generated requests below 500, within 1 s, in the envelope, without internals`,
      async () => {
        const arbitrary = fc.oneof(
          ...api.operations.map((op) => ({
            weight: HASHING.test(op.path) ? 1 : 4,
            arbitrary: draftArbitrary(op, api.resolve, HOSTILITY),
          })),
        );
        let n = 0;
        const tally = new Tally();
        const cpu = process.cpuUsage();
        // Requests go in batches sent at once: fewer runs, and the server meets concurrent calls.
        const property = fc.asyncProperty(
          fc.array(arbitrary, { minLength: BATCH, maxLength: BATCH }),
          async (drafts) => {
            const credentials = await Promise.all(drafts.map((draft) => fixtures.for(draft.op, draft.method)));
            const exchanged = await Promise.all(
              drafts.map(async (draft, i) => {
                const sent = build(draft, credentials[i]!);
                const socket = n++ % SOCKET_EVERY === 0;
                return { draft, sent, socket, first: await exchange(sent, socket) };
              }),
            );
            for (const { draft, sent, socket, first } of exchanged) {
              const { answer, problems } = await again(sent, socket, first);
              tally.add(draft.op, answer);
              if (answer.status < 300) fixtures.markSpent(draft.op, draft.method);
              if (problems.length > 0) throw new Error(describeFailure(sent, answer, problems));
            }
          },
        );
        // fc.check, not fc.assert: the counterexample (megabytes of hostile bodies) is told in the request's words instead.
        const run = await fc.check(property, { seed: SEED, numRuns: Math.ceil(REQUESTS / BATCH), endOnFailure: true });
        if (run.failed) {
          const cause = run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
          throw new Error(`${cause}\nfast-check seed ${run.seed}, path ${run.counterexamplePath}`);
        }
        if (process.env.FUZZ_STATS)
          console.log(
            `${tally.report()}\nCPU ${Math.round((process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000)} ms`,
          );
        // The fuzzer must get past the front door as well as be refused by it.
        expect(tally.succeeded()).toBeGreaterThan(REQUESTS / 20);
      },
      Math.max(600_000, REQUESTS * 30),
    );

    it('answers every route × every method it does not serve in the envelope', async () => {
      const served = new Map<string, Set<string>>();
      for (const op of api.operations) served.set(op.path, (served.get(op.path) ?? new Set()).add(op.method));
      const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'];
      let n = 0;
      for (const [path, own] of served) {
        for (const method of methods.filter((m) => !own.has(m))) {
          const url = path.replace(/\{(\w+)\}/g, 'x');
          const sent: Sent = {
            method,
            url,
            headers: { 'content-type': 'application/json' },
            payload: Buffer.from('{}'),
          };
          const socket = n++ % 2 === 0;
          const { answer, problems } = await again(sent, socket, await exchange(sent, socket));
          expect(problems, describeFailure(sent, answer, problems)).toEqual([]);
        }
      }
    });
  });

  describe.skipIf(skip)(`${dialect}: the default rate limits refuse in the envelope`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect });
    });
    afterAll(() => t?.close());

    it.each([
      ['/api/auth/sign-in', { email: 'nobody@example.com', password: 'x' }, '10.9.9.1'],
      ['/v1/players/login', { player_name: 'nobody', password: 'x' }, '10.9.9.2'],
      ['/login_player', { player_name: 'nobody', password: 'x' }, '10.9.9.3'],
    ])('POST %s from one address until it answers 429', async (url, body, ip) => {
      let answer: Answer | undefined;
      const sent: Sent = {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'x-game-id': 'g', 'x-sw-game-id': 'g' },
        payload: Buffer.from(JSON.stringify(body)),
      };
      for (let i = 0; i < 700 && answer?.status !== 429; i++) {
        const started = performance.now();
        const res = await t.app.inject({ ...sent, method: 'POST', remoteAddress: ip });
        answer = { status: res.statusCode, headers: res.headers, body: res.body, ms: performance.now() - started };
      }
      expect(answer!.status).toBe(429);
      expect(Number(answer!.headers['retry-after'])).toBeGreaterThan(0);
      expect(problemsOf(sent, answer!)).toEqual([]);
    });
  });
}
