import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SERVER = new URL('../..', import.meta.url).pathname;

/**
 * The real server (`node --import tsx src/main.ts`, or `entry` such as src/cluster.ts) in a child
 * process; resolves once it prints its address.
 */
export async function startServerProcess(env: Record<string, string>, entry = 'src/main.ts') {
  const webRoot = mkdtempSync(join(tmpdir(), 'howl-web-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: SERVER,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      WEB_ROOT: webRoot,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server printed no address within 30 s:\n${out}`)), 30_000);
    child.stdout!.on('data', () => {
      const m = out.match(/Howl is listening on http:\/\/localhost:(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    void exited.then((code) => reject(new Error(`the server exited with ${code}:\n${out}`)));
  });
  return {
    child,
    url,
    exited,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
