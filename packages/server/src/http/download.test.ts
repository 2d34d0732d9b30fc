import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../test/support/app.js';

const ZIPS = ['howl-godot3-0.6.20.zip', 'howl-godot4-0.9.7.zip'];
const SECRET = 'a file beside the web root that must never be served';

/** Sends one request line as it is, without the client or app.inject normalising `..` or escapes. */
function rawGet(port: number, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: howl\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(text.split(' ')[1]), text }));
  });
}

describe('plugin downloads under /download/', () => {
  let t: TestApp;
  let port: number;
  let dir: string;
  const bytes = new Map(ZIPS.map((name) => [name, randomBytes(3000)]));

  beforeAll(async () => {
    // A built site with the download folder the build writes, and a secret next to (not inside) it.
    dir = mkdtempSync(join(tmpdir(), 'howl-download-'));
    const webRoot = join(dir, 'web');
    mkdirSync(join(webRoot, 'download'), { recursive: true });
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Howl SPA</title><div id="root"></div>');
    for (const [name, body] of bytes) writeFileSync(join(webRoot, 'download', name), body);
    writeFileSync(join(webRoot, 'download', 'downloads.json'), '{"downloads":[]}');
    writeFileSync(join(dir, 'secret.txt'), SECRET);
    writeFileSync(join(dir, 'secret.zip'), SECRET);
    t = await startTestApp({ dialect: 'sqlite', smtp: false, webRoot });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(ZIPS)('serves %s as an attachment named after engine and version', async (name) => {
    const res = await call(t.app, 'GET', `/download/${name}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.rawPayload.equals(bytes.get(name)!)).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(3000);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: `/download/${ZIPS[1]}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${ZIPS[1]}"`);
    expect(res.body).toBe('');
  });

  it('serves the list of downloads as JSON, not as an attachment', async () => {
    const res = await call(t.app, 'GET', '/download/downloads.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.json()).toEqual({ downloads: [] });
  });

  it.each(['/download/howl-godot4-0.0.1.zip', '/download/nothing', '/download/sub/howl-godot4-0.9.7.zip'])(
    'answers 404 NotFound in the envelope for the unknown file %s',
    async (path) => {
      const res = await call(t.app, 'GET', path);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json().error).toMatchObject({ code: 'NotFound' });
      expect(res.headers['content-disposition']).toBeUndefined();
    },
  );

  it('still serves the site page /download itself', async () => {
    const res = await call(t.app, 'GET', '/download');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Howl SPA');
  });

  it.each([
    '/download/../secret.txt',
    '/download/../../secret.txt',
    '/download/..%2f..%2fsecret.txt',
    '/download/%2e%2e/%2e%2e/secret.zip',
    '/download/..%5c..%5csecret.zip',
    '/download/....//....//secret.txt',
    '/download/%252e%252e%252fsecret.txt',
    '/../secret.txt',
    '/%2e%2e/secret.zip',
    '/download/' + encodeURIComponent(join('..', '..', 'secret.txt')),
  ])('never serves a file outside the web root for %s', async (path) => {
    const res = await rawGet(port, path);
    expect(res.text).not.toContain(SECRET);
    expect(res.status === 404 || res.status === 400 || res.text.includes('Howl SPA')).toBe(true);
  });
});
