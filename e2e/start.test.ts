import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

/** Starts `npm start` as the README says, on a free port with its own data folder, and waits for its address. */
function startHowl(dataDir: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    // Its own process group, so the test can signal npm and the server together, as a terminal's Ctrl-C does.
    detached: true,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dataDir, 'howl.db')}`,
      REDIS_URL: '',
      SMTP_URL: '',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no address within 90 s:\n${out}`)), 90_000);
    const check = () => {
      const m = out.match(/Howl is listening on (http:\/\/localhost:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, output: () => out });
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
}

describe('npm start (the README quick start)', () => {
  let dataDir: string;
  let howl: Awaited<ReturnType<typeof startHowl>>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'howl-start-'));
    howl = await startHowl(dataDir);
  }, 120_000);

  afterAll(() => {
    if (howl && howl.child.exitCode === null) process.kill(-howl.child.pid!, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves /healthz, the site and a developer sign-up on an embedded SQLite database', async () => {
    const health = await fetch(`${howl.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: 'sqlite' });

    const home = await fetch(`${howl.url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');

    const email = `start.${Date.now()}@example.com`;
    const signUp = await fetch(`${howl.url}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Howl-Pass1', firstName: 'A', lastName: 'B' }),
    });
    expect(signUp.status).toBe(200);
    const outbox = (await (await fetch(`${howl.url}/api/dev/outbox`)).json()) as { messages: Array<{ to: string }> };
    expect(outbox.messages[0]?.to).toBe(email);
  });

  it('drains and exits within 10 seconds of SIGTERM', async () => {
    // 'close' fires once every process holding the output pipes (npm, tsx, the server) has gone.
    const exited = new Promise<void>((resolve) => howl.child.on('close', () => resolve()));
    const started = Date.now();
    process.kill(-howl.child.pid!, 'SIGTERM');
    await exited;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(howl.output()).toContain('SIGTERM received, shutting down');
  }, 15_000);
});
