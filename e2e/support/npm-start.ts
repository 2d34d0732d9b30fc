import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownServerEnv } from './howl.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * `npm start` rebuilds packages/web/dist, which a running `npm start` serves: suites that start it take
 * turns, holding this lock from the start until their server has exited.
 */
const LOCK = join(tmpdir(), 'howl-npm-start.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function takeLock(timeoutMs: number): Promise<() => void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      return () => rmSync(LOCK, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
    } catch {
      // Made but not yet written: its owner is writing it now.
    }
    // A suite that died holding the lock leaves it behind.
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) rmSync(LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`another suite held ${LOCK} for ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export interface NpmStart {
  child: ChildProcess;
  /** The address the server printed, `http://localhost:<port>`, as a developer reads it. */
  url: string;
  output: () => string;
}

/**
 * Starts `npm start` (or `npmArgs`, with `env` over the defaults) as the README says, on a free port
 * with its own data folder, and waits for its address.
 * The test ends it (it is its own process group, as in a terminal: signal `-child.pid` for Ctrl-C).
 */
export async function npmStart(
  dataDir: string,
  npmArgs = ['start'],
  env: Record<string, string> = {},
): Promise<NpmStart> {
  const release = await takeLock(600_000);
  const child = spawn('npm', npmArgs, {
    cwd: ROOT,
    // Its own process group, so the test can signal npm and the server together, as a terminal's Ctrl-C does.
    detached: true,
    env: {
      ...process.env,
      ...ownServerEnv(dataDir),
      SMTP_URL: '',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.on('exit', release);
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

/** Ends an `npm start` and everything it started, and waits for it. */
export async function stopNpmStart(howl: NpmStart | undefined): Promise<void> {
  if (!howl || howl.child.exitCode !== null || howl.child.signalCode !== null) return;
  const exited = new Promise((resolve) => howl.child.once('exit', resolve));
  process.kill(-howl.child.pid!, 'SIGKILL');
  await exited;
}

/** The newest code mailed to `email`, read from `npm start`'s development outbox as the README does. */
export async function outboxCode(url: string, email: string): Promise<string> {
  const outbox = (await (await fetch(`${url}/api/dev/outbox`)).json()) as {
    messages: Array<{ to: string; text: string }>;
  };
  const code = /\b(\d{6})\b/.exec(outbox.messages.find((m) => m.to === email)?.text ?? '')?.[1];
  if (!code) throw new Error(`no code for ${email} in the outbox: ${JSON.stringify(outbox)}`);
  return code;
}
