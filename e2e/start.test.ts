import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmStart, stopNpmStart, type NpmStart } from './support/npm-start.js';

describe('npm start (the README quick start)', () => {
  let dataDir: string;
  let howl: NpmStart;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'howl-start-'));
    howl = await npmStart(dataDir);
  }, 600_000);

  afterAll(async () => {
    await stopNpmStart(howl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the compiled server, not TypeScript', () => {
    expect(howl.output()).toContain('exec node dist/main.js --dev-outbox');
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

  it('serves the plugin zips it packed, as the /download page links them', async () => {
    const list = (await (await fetch(`${howl.url}/download/downloads.json`)).json()) as {
      downloads: Array<{ file: string; bytes: number }>;
    };
    expect(list.downloads.map((d) => d.file)).toEqual(['howl-godot3-0.6.20.zip', 'howl-godot4-0.9.7.zip']);
    for (const { file, bytes } of list.downloads) {
      const zip = await fetch(`${howl.url}/download/${file}`);
      expect(zip.status).toBe(200);
      expect(zip.headers.get('content-type')).toBe('application/zip');
      expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="${file}"`);
      const body = Buffer.from(await zip.arrayBuffer());
      expect(body.byteLength).toBe(bytes);
      expect(body.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    }
  });

  it('on a SIGTERM to npm alone (as a process manager sends), finishes the request in flight and exits', async () => {
    await expectOneDrainingShutdown(howl, () => process.kill(howl.child.pid!, 'SIGTERM'));
  }, 20_000);
});

describe('the server start script under a SIGTERM to its whole process group (Ctrl-C in a terminal)', () => {
  let dataDir: string;
  let howl: NpmStart;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'howl-start-'));
    // The server's own start script (site and server built above): npm forwards the signal the group also sends.
    howl = await npmStart(dataDir, ['run', 'start', '-w', '@howl/server']);
  }, 600_000);

  afterAll(async () => {
    await stopNpmStart(howl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shuts down once, finishes the request in flight and exits', async () => {
    await expectOneDrainingShutdown(howl, () => process.kill(-howl.child.pid!, 'SIGTERM'));
  }, 20_000);
});

/**
 * Sends half a sign-up, signals, sends the rest: the request must be answered, npm must exit 0
 * within 10 seconds, nothing may still listen on the port, and the server must log one shutdown.
 */
async function expectOneDrainingShutdown(howl: NpmStart, signal: () => void) {
  const exited = new Promise<number | null>((resolve) => howl.child.on('exit', (code) => resolve(code)));
  const body = JSON.stringify({
    email: `drain.${Date.now()}@example.com`,
    password: 'Howl-Pass1',
    firstName: 'A',
    lastName: 'B',
  });
  const answer = new Promise<number>((resolve, reject) => {
    const req = request(`${howl.url}/api/auth/sign-up`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        // The server answers "100 Continue" once it has the request: from then on it is in flight.
        expect: '100-continue',
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.on('continue', () => {
      req.write(body.slice(0, 10));
      signal();
      setTimeout(() => req.end(body.slice(10)), 600);
    });
    req.flushHeaders();
  });
  const started = Date.now();
  expect(await answer).toBe(200);
  expect(await exited).toBe(0);
  expect(Date.now() - started).toBeLessThan(10_000);
  // The server process is gone too, not left behind by the npm that started it.
  await expect(waitUntilRefused(howl.url)).resolves.toBe(true);
  expect(howl.output().match(/SIGTERM received, shutting down/g)).toHaveLength(1);
}

async function waitUntilRefused(url: string): Promise<boolean> {
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    try {
      await fetch(`${url}/healthz`);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
