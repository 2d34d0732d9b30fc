import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app.js';
import { send } from '../../test/support/raw-http.js';
import { DIALECTS } from '../../test/support/services.js';
import { answerClientError } from './client-errors.js';

const chunked = (chunks: string) =>
  'POST /api/auth/sign-in HTTP/1.1\r\nHost: howl\r\nContent-Type: application/json\r\n' +
  `Transfer-Encoding: chunked\r\n\r\n${chunks}`;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: requests Node's HTTP parser refuses`, () => {
    let t: TestApp;
    let port: number;
    beforeAll(async () => {
      t = await startTestApp({ dialect, smtp: false });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    afterAll(() => t?.close());

    it.each([
      ['a 20 KB query', `GET /v1/ping?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: howl\r\n\r\n`, 431, 'HeadersTooLarge'],
      ['an unknown method', 'FROB /api/games HTTP/1.1\r\nHost: howl\r\n\r\n', 405, 'MethodNotAllowed'],
      ['a chunk size that is not hex', chunked('zz\r\n{}\r\n0\r\n\r\n'), 400, 'InvalidParameter'],
      ['a chunk without its line end', chunked('2\r\n{}XX0\r\n\r\n'), 400, 'InvalidParameter'],
      [
        'chunked plus Content-Length',
        chunked('2\r\n{}\r\n0\r\n\r\n').replace('Transfer-Encoding', 'Content-Length: 2\r\nTransfer-Encoding'),
        400,
        'InvalidParameter',
      ],
      ['a malformed HTTP version', 'GET / HTTP/9.9\r\nHost: howl\r\n\r\n', 400, 'InvalidParameter'],
    ])('answers %s with the error envelope', async (_what, request, status, code) => {
      const res = await send(port, request);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = JSON.parse(res.body);
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error).toEqual({ code, message: expect.any(String) });
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    });

    it('names the methods it serves on a 405', async () => {
      const res = await send(port, 'FROB / HTTP/1.1\r\nHost: howl\r\n\r\n');
      expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    });

    it.each([
      ['an OPTIONS on /v1 without preflight headers', 'OPTIONS /v1/ping', 400, 'InvalidParameter'],
      [
        'an OPTIONS on /v1 with an Origin only',
        'OPTIONS /v1/ping\r\nOrigin: https://mygame.example',
        400,
        'InvalidParameter',
      ],
      ['a method no route serves', 'PROPFIND /v1/ping', 404, 'NotFound'],
      ['an Expect other than 100-continue', 'GET /v1/ping\r\nExpect: teapot', 417, 'InvalidParameter'],
    ])('answers %s with the error envelope', async (_what, start, status, code) => {
      const [line, ...headers] = start.split('\r\n');
      const res = await send(
        port,
        [`${line} HTTP/1.1`, 'Host: howl', 'Connection: close', ...headers, '', ''].join('\r\n'),
      );
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body).error).toEqual({ code, message: expect.any(String) });
    });

    it('answers an HTTP/1.1 request without Host with 400 InvalidParameter in the envelope', async () => {
      const res = await send(port, 'GET /v1/ping HTTP/1.1\r\nConnection: close\r\n\r\n');
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error).toEqual({ code: 'InvalidParameter', message: 'Send the Host header.' });
    });

    it.each([
      ['an HTTP/1.0 request without Host', 'GET /healthz HTTP/1.0\r\n\r\n'],
      [
        'an Expect: 100-continue',
        'GET /healthz HTTP/1.1\r\nHost: howl\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
      ],
    ])('still serves %s', async (_what, request) => {
      const res = await send(port, request);
      expect(res.body).toMatch(/"status":"ok"/);
    });

    it('still answers a real preflight on /v1 with 204 and the CORS headers', async () => {
      const res = await send(
        port,
        'OPTIONS /v1/ping HTTP/1.1\r\nHost: howl\r\nConnection: close\r\nOrigin: https://mygame.example\r\n' +
          'Access-Control-Request-Method: POST\r\n\r\n',
      );
      expect([res.status, res.headers['access-control-allow-origin']]).toEqual([204, '*']);
    });
  });
}

describe('sqlite: a request that arrives while the server closes', () => {
  it('answers 503 ServiceUnavailable in the envelope', async () => {
    const t = await startTestApp({ dialect: 'sqlite', smtp: false });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await new Promise((resolve) => socket.once('connect', resolve));
    // A request whose body is still on its way keeps the connection busy while close() begins...
    const body = '{"email":"a@example.com","password":"x"}';
    socket.write(
      'POST /api/auth/sign-in HTTP/1.1\r\nHost: howl\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // ...and the next request on it arrives after.
    socket.write(`${body.slice(5)}GET /healthz HTTP/1.1\r\nHost: howl\r\n\r\n`);
    await new Promise((resolve) => socket.once('close', resolve));
    await closed;
    await t.database.close();
    await t.smtp.close();
    const last = text.slice(text.lastIndexOf('HTTP/1.1 '));
    expect(last).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(last.split('\r\n\r\n')[1]!)).toEqual({
      error: { code: 'ServiceUnavailable', message: expect.any(String) },
    });
  });
});

describe('a request that times out before it is read', () => {
  it('answers 408 RequestTimeout in the envelope and closes the connection', () => {
    let written = '';
    let destroyed = false;
    const socket = {
      destroyed: false,
      writable: true,
      write: (text: string) => (written += text),
      destroy: () => (destroyed = true),
    };
    const err = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    answerClientError()(err, socket as never);
    expect(written).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(written.split('\r\n\r\n')[1]!)).toEqual({
      error: { code: 'RequestTimeout', message: expect.any(String) },
    });
    expect(destroyed).toBe(true);
  });
});
