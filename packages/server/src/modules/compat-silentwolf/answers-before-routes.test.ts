import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { send } from '../../../test/support/raw-http.js';
import { DIALECTS } from '../../../test/support/services.js';

const line = (path: string) => `GET ${path} HTTP/1.1\r\nHost: howl\r\nConnection: close\r\n\r\n`;

// The plugin reads every answer's `success`; an answer without it raises a script error and its
// call's signal never comes (silentwolf-protocol §3), so a game waiting on it hangs.
for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: SilentWolf paths answered before any route runs`, () => {
    let t: TestApp;
    let port: number;
    beforeAll(async () => {
      t = await startTestApp({ dialect, smtp: false });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    afterAll(() => t?.close());

    it.each([
      ['a name with a slash, which no route has', '/get_player_data/g1/AC/DC', 404, 'NotFound'],
      ['a percent sign not followed by two hex digits', '/get_player_data/g1/100%Fox', 400, 'InvalidParameter'],
      ['a tab in the request line', '/get_player_data/g1/Bo\tx', 400, 'InvalidParameter'],
      ['an unknown path under a plugin prefix', '/save_score/extra/parts', 404, 'NotFound'],
    ])('answers %s with success false and a sentence', async (_what, path, status, code) => {
      const res = await send(port, line(path));
      expect(res.status).toBe(status);
      expect(JSON.parse(res.body)).toEqual({ success: false, error: expect.any(String), code });
    });

    it("keeps Howl's own envelope for its own paths", async () => {
      for (const path of ['/v1/nowhere', '/v1/player-data/100%Fox', '/api/games/x%zz', '/v1/player-data/Bo\tx']) {
        const res = await send(port, line(path));
        expect(JSON.parse(res.body), path).toEqual({
          error: { code: expect.any(String), message: expect.any(String) },
        });
      }
    });

    it('answers a call that arrives while the server restarts in the plugin shape (503)', async () => {
      const other = await startTestApp({ dialect, smtp: false });
      await other.app.listen({ port: 0, host: '127.0.0.1' });
      const socket = connect((other.app.server.address() as AddressInfo).port, '127.0.0.1');
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (text += chunk));
      const ended = new Promise((resolve) => socket.on('close', resolve));
      // A request whose body has not all arrived keeps the connection busy, so the close waits for it.
      socket.write(
        'POST /v1/ping HTTP/1.1\r\nHost: howl\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{',
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closed = other.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The rest of that body, then a SilentWolf call on the same connection: it arrives while the server closes.
      socket.write('}' + line('/get_player_data/g1/Wolf'));
      await ended;
      await closed;
      const answers = text.split(/(?=HTTP\/1\.1 )/);
      expect(answers).toHaveLength(2);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 503 /);
      expect(JSON.parse(answers[1]!.split('\r\n\r\n')[1]!)).toEqual({
        success: false,
        error: 'The server is restarting. Please try again in a moment.',
        code: 'ServiceUnavailable',
      });
    });
  });
}
