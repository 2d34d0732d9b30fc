import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, STRONG_PASSWORD, uniqueEmail, type TestApp } from '../../test/support/app.js';
import { DIALECTS } from '../../test/support/services.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: the HTTP edge`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect, smtp: false, env: { BODY_LIMIT: '2048' } });
    });
    afterAll(() => t?.close());

    it('GET /healthz answers 200 with the database engine', async () => {
      const res = await call(t.app, 'GET', '/healthz');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', database: dialect });
    });

    // A SilentWolf path is a game call: a game's unknown call there is not sent the site, and is answered in the plugin's shape.
    it.each(['/api/nothing', '/api/', '/v1/nothing', '/v1', '/save_score', '/get_scores/a/b/c/d'])(
      'answers a JSON 404 NotFound for the unknown API path %s',
      async (path) => {
        const res = await call(t.app, 'GET', path);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        const body = res.json();
        expect(path.startsWith('/api') || path.startsWith('/v1') ? body.error.code : body).toEqual(
          path.startsWith('/api') || path.startsWith('/v1')
            ? 'NotFound'
            : { success: false, error: expect.any(String), code: 'NotFound' },
        );
      },
    );

    // The body of a call no route takes is never read: a bad one does not turn the 404 into a 400.
    it.each(['/nope', '/api/nothing', '/v1/nothing', '/get_scores/a/b/c/d'])(
      'answers 404 NotFound for a POST to %s whatever its body, before reading it',
      async (path) => {
        const res = await t.app.inject({
          method: 'POST',
          url: path,
          headers: { 'content-type': 'application/json' },
          payload: '{"not json',
        });
        expect(res.statusCode).toBe(404);
        const body = res.json();
        expect(body.error.code ?? body.code).toBe('NotFound');
      },
    );

    it.each(['/', '/features', '/dashboard/scores', '/no/such/page?x=1'])(
      'serves the SPA for the site path %s',
      async (path) => {
        const res = await call(t.app, 'GET', path);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.body).toContain('Howl SPA');
      },
    );

    it('answers 400 InvalidParameter for malformed JSON', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: { code: 'InvalidParameter', message: 'The request body is not valid JSON.' },
      });
    });

    it('answers 400 InvalidParameter naming a missing field', async () => {
      const res = await call(t.app, 'POST', '/api/auth/sign-in', { body: { email: uniqueEmail() } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field: 'password' });
    });

    it('answers 413 PayloadTooLarge for a body over BODY_LIMIT', async () => {
      const res = await call(t.app, 'POST', '/api/auth/sign-in', {
        body: { email: uniqueEmail(), password: 'x'.repeat(4096) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().error.code).toBe('PayloadTooLarge');
    });

    it.each([
      ['a form post', 'application/x-www-form-urlencoded', 'email=a%40b.cd&password=x'],
      ['plain text', 'text/plain', '{"email":"a@b.cd","password":"x"}'],
    ])('refuses %s to a console call with 415 UnsupportedMediaType', async (_what, type, payload) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { 'content-type': type },
        payload,
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().error.code).toBe('UnsupportedMediaType');
    });

    it('judges the JSON-only rule by the route, not the raw URL', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/%61pi/auth/sign-out',
        headers: { 'content-type': 'text/plain' },
        payload: '',
      });
      expect([res.statusCode, res.json().error.code]).toEqual([415, 'UnsupportedMediaType']);
    });

    it('treats an empty JSON body as {} and names the missing field', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field: 'email' });
    });

    it('answers a malformed URL with the error envelope', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/%zz' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'InvalidParameter', message: 'The URL is malformed.' } });
    });

    it('refuses control characters in names with 400 InvalidParameter, on both engines', async () => {
      const res = await call(t.app, 'POST', '/api/auth/sign-up', {
        body: { email: uniqueEmail(), password: STRONG_PASSWORD, firstName: 'A\u0001', lastName: 'B' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'First name cannot contain control or invisible formatting characters.',
        field: 'firstName',
      });
    });

    it('publishes the OpenAPI document and the browsable reference', async () => {
      const doc = (await call(t.app, 'GET', '/api/openapi.json')).json();
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/api/auth/sign-up', '/api/auth/session', '/healthz']),
      );
      expect(doc.paths['/api/auth/sign-up'].post.requestBody.content['application/json'].schema.required).toEqual(
        expect.arrayContaining(['email', 'password', 'firstName', 'lastName']),
      );
      // The game API's headers are declared, so the reference can send them.
      expect(doc.paths['/v1/ping'].get.security).toEqual([{ apiKey: [], gameId: [] }]);
      expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
      const ui = await call(t.app, 'GET', '/api/docs/');
      expect(ui.statusCode).toBe(200);
      expect(ui.body).toContain('swagger');
    });

    it('publishes a valid OpenAPI document whose every $ref names a schema it holds', async () => {
      const doc = (await call(t.app, 'GET', '/api/openapi.json')).json();
      const refs = refsIn(doc);
      expect(refs).toContain('#/components/schemas/Error');
      expect(refs.filter((ref) => resolve(doc, ref) === undefined)).toEqual([]);
      // A `$id` moves the base its `$ref`s resolve against: /api/docs then cannot find the components.
      expect(keysIn(doc, '$id')).toEqual([]);
      // The validator resolves references in place: hand it a copy.
      const result = await validate(structuredClone(doc));
      expect(result.valid ? [] : compileErrors(result)).toEqual([]);
    });
  });

  describe.skipIf(skip)(`${dialect}: when the database is gone`, () => {
    it('answers 503 on /healthz and a generic 500 (no stack trace) on calls', async () => {
      const t = await startTestApp({ dialect });
      await t.database.db.destroy();
      const health = await call(t.app, 'GET', '/healthz');
      expect(health.statusCode).toBe(503);
      expect(health.json().error.code).toBe('ServiceUnavailable');
      const res = await call(t.app, 'POST', '/api/auth/sign-in', {
        body: { email: uniqueEmail(), password: STRONG_PASSWORD },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        error: { code: 'InternalError', message: 'Something went wrong on our side. Please try again.' },
      });
      expect(res.body).not.toMatch(/at .*\.ts|stack/i);
      await t.app.close();
      await t.smtp.close();
      if (dialect === 'postgres') await t.database.close().catch(() => undefined);
    });
  });
}

describe('sqlite: when the mail server refuses mail for a while', () => {
  it('answers 503 each time, and once it is back the next sign-up mails the code: the refused mails used none up', async () => {
    const t = await startTestApp({ dialect: 'sqlite' });
    try {
      const email = uniqueEmail();
      const body = { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' };
      t.smtp.refusing = true;
      // More tries than the account's code mails an hour (5).
      for (let i = 0; i < 7; i++) {
        const res = await call(t.app, 'POST', '/api/auth/sign-up', { body });
        expect([res.statusCode, res.json().error.code], `try ${i}`).toEqual([503, 'ServiceUnavailable']);
      }
      t.smtp.refusing = false;
      const res = await call(t.app, 'POST', '/api/auth/sign-up', { body });
      expect(res.json().error.code).toBe('UsernameExists');
      await t.smtp.waitFor(email, 1);
      const confirmed = await call(t.app, 'POST', '/api/auth/confirm-sign-up', {
        body: { email, code: t.smtp.lastCode(email) },
      });
      expect(confirmed.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('sqlite: when mail cannot be sent', () => {
  it('answers 503 ServiceUnavailable, and a later sign-up for the same address mails the code', async () => {
    const t = await startTestApp({ dialect: 'sqlite', env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    try {
      const email = uniqueEmail();
      const body = { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' };
      const res = await call(t.app, 'POST', '/api/auth/sign-up', { body });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toEqual({
        code: 'ServiceUnavailable',
        message: 'We could not send the email right now. Please try again in a moment.',
      });
    } finally {
      await t.close();
    }
  });
});

describe('sqlite: behind a proxy (TRUST_PROXY=1)', () => {
  it('counts the address the proxy saw, not one the client wrote into X-Forwarded-For', async () => {
    const t = await startTestApp({
      dialect: 'sqlite',
      env: { TRUST_PROXY: '1', AUTH_REQUESTS_PER_IP_PER_MINUTE: '3' },
    });
    try {
      const send = (spoofed: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in',
          remoteAddress: '10.0.0.2',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `${spoofed}, 198.51.100.7` },
          payload: '{}',
        });
      for (let i = 0; i < 3; i++) expect((await send(`203.0.113.${i}`)).statusCode).toBe(400);
      const res = await send('203.0.113.99');
      expect([res.statusCode, res.json().error.code]).toEqual([429, 'LimitExceeded']);
    } finally {
      await t.close();
    }
  });
});

describe('sqlite: production settings', () => {
  it('marks the session cookie Secure behind an https PUBLIC_URL', async () => {
    const t = await startTestApp({ dialect: 'sqlite', env: { PUBLIC_URL: 'https://howl.example.com' } });
    try {
      const email = uniqueEmail();
      await call(t.app, 'POST', '/api/auth/sign-up', {
        body: { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
      });
      const res = await call(t.app, 'POST', '/api/auth/confirm-sign-up', {
        body: { email, code: t.smtp.lastCode(email) },
      });
      expect(res.cookies.find((c) => c.name === 'howl_session')).toMatchObject({
        secure: true,
        httpOnly: true,
        sameSite: 'Lax',
      });
    } finally {
      await t.close();
    }
  });
});

/** Every value of a key in a JSON document, however deep. */
function keysIn(node: unknown, name: string): unknown[] {
  if (Array.isArray(node)) return node.flatMap((item) => keysIn(item, name));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === name ? [value] : keysIn(value, name)));
}

/** Every `$ref` in a JSON document. */
function refsIn(node: unknown): string[] {
  return keysIn(node, '$ref').filter((ref): ref is string => typeof ref === 'string');
}

/** What a local `#/…` reference points at in the document, or undefined. */
function resolve(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      doc,
    );
}
