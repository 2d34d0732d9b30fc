import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { startSmtpServer } from '../../packages/server/test/support/smtp.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** A server of its own: a free port on 127.0.0.1, SQLite in `dataDir`, no Redis. */
export function ownServerEnv(dataDir: string): Record<string, string> {
  return { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dataDir, 'howl.db')}`, REDIS_URL: '' };
}

/**
 * The real server in its own process, on SQLite in a fresh folder, with the site built for the
 * browser suites and mail going to a real SMTP server the test reads.
 */
export async function startHowl(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'howl-e2e-'));
  const smtp = await startSmtpServer();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...ownServerEnv(dataDir),
      SMTP_URL: smtp.url,
      WEB_ROOT: inject('webRoot'),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      // A browser suite signs in and out many times from one address.
      AUTH_REQUESTS_PER_IP_PER_MINUTE: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Howl printed no address within 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      const m = out.match(/Howl is listening on (http:\/\/localhost:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    });
    child.on('exit', (code) => reject(new Error(`Howl exited with ${code}:\n${out}`)));
  });
  return {
    url,
    smtp,
    dbFile: join(dataDir, 'howl.db'),
    output: () => out,
    async close() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type Howl = Awaited<ReturnType<typeof startHowl>>;

/** A JSON call to the running server, with a session cookie or a game's key. */
export async function http(
  howl: Pick<Howl, 'url'>,
  method: string,
  path: string,
  opts: { body?: unknown; cookie?: string; game?: { game_id: string; api_key: string }; token?: string } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes, checked by each test
): Promise<{ status: number; body: any; cookie?: string }> {
  const res = await fetch(howl.url + path, {
    method,
    headers: {
      ...(opts.body === undefined && method === 'GET' ? {} : { 'content-type': 'application/json' }),
      ...(opts.cookie ? { cookie: `howl_session=${opts.cookie}` } : {}),
      ...(opts.game ? { 'x-api-key': opts.game.api_key, 'x-game-id': opts.game.game_id } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    ...(opts.body === undefined && method === 'GET' ? {} : { body: JSON.stringify(opts.body ?? {}) }),
  });
  const text = await res.text();
  const cookie = /howl_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  return { status: res.status, body: text ? JSON.parse(text) : undefined, ...(cookie ? { cookie } : {}) };
}

export const PASSWORD = 'Howl-Pass1';

/**
 * Signs a developer up and in through the API (the browser suites test the forms themselves). The code
 * comes from the test's SMTP server, or from `readCode` (e.g. `npm start`'s outbox).
 */
export async function developer(
  howl: Pick<Howl, 'url'> & Partial<Pick<Howl, 'smtp'>>,
  email: string,
  readCode: (email: string) => string | Promise<string> = (e) => howl.smtp!.lastCode(e),
): Promise<string> {
  await http(howl, 'POST', '/api/auth/sign-up', {
    body: { email, password: PASSWORD, firstName: 'Indie', lastName: 'Developer' },
  });
  const res = await http(howl, 'POST', '/api/auth/confirm-sign-up', {
    body: { email, code: await readCode(email) },
  });
  if (!res.cookie) throw new Error(`confirmation failed: ${JSON.stringify(res.body)}`);
  return res.cookie;
}
