import fc from 'fast-check';
import { hostileSegment, hostileValue, inUrl } from './hostile.js';
import { schemaArbitrary, type JsonSchema, type Resolve } from './schema-arbitrary.js';

/** One route and method of the OpenAPI document, with who may call it. */
export interface Operation {
  method: string;
  /** As the document writes it: `/v1/leaderboards/{name}/scores`. */
  path: string;
  params: Array<{ in: 'path' | 'query' | 'header'; name: string; required: boolean; schema: JsonSchema }>;
  body: JsonSchema | undefined;
  caller: 'developer' | 'game' | 'player' | 'silentwolf' | 'anyone';
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Operation['params'];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        security?: Array<Record<string, unknown>>;
      }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Every route and method the document lists, and how to resolve its `$ref`s. */
export function operationsOf(doc: OpenApiDocument): { operations: Operation[]; resolve: Resolve } {
  const resolve: Resolve = (ref) => doc.components?.schemas?.[ref.split('/').pop()!] ?? {};
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): Operation => {
      const security = Object.keys(op.security?.[0] ?? {});
      return {
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: op.requestBody?.content['application/json']?.schema,
        caller: security.includes('playerSession')
          ? 'player'
          : security.includes('apiKey')
            ? 'game'
            : path.startsWith('/api/')
              ? 'developer'
              : path.startsWith('/healthz')
                ? 'anyone'
                : 'silentwolf',
      };
    }),
  );
  return { operations, resolve };
}

/** Where a request's value comes from: the fixture's real one (a real game id, board, player), or this text. */
export type Slot = { real: number } | { text: string };

/** A request before the fixture's real ids and credentials are filled in. */
export interface Draft {
  op: Operation;
  method: string;
  pathValues: Record<string, Slot>;
  query: Array<[string, string]>;
  body: Body;
  contentType: string | undefined;
  gzip: boolean;
  credentials: 'real' | 'missing' | 'wrong' | 'doubled';
  /** One more header, odd in name or value; it replaces the credential's when they share a name. */
  oddHeader: [string, string] | null;
}

export type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; bytes: Buffer }
  | { kind: 'sized'; bytes: number };

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json;;',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json, text/plain',
  'APPLICATION/JSON',
  'application/jsonx',
  '*/*',
];

const ODD_HEADERS: Array<[string, string]> = [
  ['x-api-key', 'x'.repeat(20_000)],
  ['x-api-key', ''],
  ['x-game-id', 'é/../x'],
  ['x-game-id', 'g'.repeat(5_000)],
  ['authorization', `Bearer ${'a'.repeat(10_000)}`],
  ['authorization', 'Basic Zm9vOmJhcg=='],
  ['authorization', 'Bearer'],
  ['cookie', `howl_session=${'x'.repeat(5_000)}`],
  ['cookie', 'howl_session=a; howl_session=b'],
  ['cookie', 'howl_session=%zz'],
  ['x-forwarded-for', '1.2.3.4, ::1, nonsense'],
  ['expect', '100-continue'],
  ['expect', 'nonsense'],
  ['accept', 'text/html'],
  ['accept-encoding', 'gzip, br'],
  ['origin', 'https://evil.example'],
  ['range', 'bytes=0-1'],
  ['x-sw-game-id', 'another-game'],
  ['x-sw-godot-version', '9'.repeat(400)],
  ['x-sw-plugin-version', '\u00ff'],
];

/** Bodies no JSON parser should accept, or that should stop it early. */
const rawBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constantFrom(
    Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0x80]),
    Buffer.from('{"a":"\xff\xfe"}', 'latin1'),
    Buffer.from('{"a":"\\ud800"}'),
    Buffer.from('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}'),
    Buffer.from('{"a":1,"a":2}'),
    Buffer.from('{"a":1e999}'),
    Buffer.from('[1,2'),
    Buffer.from('nul\u0000l'),
    Buffer.from('\u0000'),
    Buffer.from('null'),
    Buffer.from('"text"'),
    Buffer.from('123'),
    Buffer.from('[]'),
    Buffer.from('<xml/>'),
    Buffer.from('a=1&b=2'),
    Buffer.from('\x1f\x8b\x08\x00garbage'),
  ),
  fc.integer({ min: 65, max: 200_000 }).map((n) => Buffer.from('['.repeat(n))),
  fc.integer({ min: 65, max: 50_000 }).map((n) => Buffer.from(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)),
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
);

/** Requests for one operation: shaped by its schemas, with hostile parts mixed in. */
export function draftArbitrary(op: Operation, resolve: Resolve, hostility: number): fc.Arbitrary<Draft> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const slot = (schema: JsonSchema): fc.Arbitrary<Slot> =>
    fc.oneof(
      { weight: 6, arbitrary: fc.nat(7).map((real) => ({ real })) },
      { weight: 2, arbitrary: schemaArbitrary(schema, resolve, 0).map((v) => ({ text: inUrl(v, false) })) },
      { weight: 1, arbitrary: hostileSegment.map((text) => ({ text })) },
    );
  const queryValue = (schema: JsonSchema) =>
    fc
      .tuple(schemaArbitrary(schema, resolve, hostility), fc.integer({ min: 0, max: 9 }))
      .map(([v, raw]) => inUrl(v, raw === 0));
  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.option(
          queryValue(p.schema).map((v) => [p.name, v] as [string, string]),
          { freq: 2 },
        ),
      ),
      // A parameter the route does not know, or one sent twice.
      fc.option(
        fc.constantFrom(['unknown', 'x'], ['max', '1'], ['max', '2'], ['__proto__', 'x']) as fc.Arbitrary<
          [string, string]
        >,
        { freq: 6 },
      ),
      // Thousands of parameters, the same name or `a[b][c]` nesting.
      fc.option(fc.integer({ min: 100, max: 3_000 }), { freq: 40 }),
    )
    .map((parts) => {
      const many = parts.pop() as number | null;
      const pairs = (parts as Array<[string, string] | null>).filter((p): p is [string, string] => p !== null);
      if (many)
        pairs.push(
          ...Array.from({ length: many }, (_, i): [string, string] =>
            i % 2 ? ['max', '1'] : [`a${'[b]'.repeat(i % 50)}`, 'x'],
          ),
        );
      return pairs;
    });
  const jsonBody: fc.Arbitrary<Body> = op.body
    ? schemaArbitrary(op.body, resolve, hostility).map((value) => ({ kind: 'json' as const, value }))
    : fc.oneof(
        fc.constant({ kind: 'none' as const }),
        hostileValue.map((value) => ({ kind: 'json' as const, value })),
      );
  const body: fc.Arbitrary<Body> = fc.oneof(
    { weight: 16, arbitrary: jsonBody },
    { weight: 2, arbitrary: rawBody.map((bytes) => ({ kind: 'raw' as const, bytes })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
    // Near and over the body limit (1 MiB by default): costly, so rare.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(1024 * 1024 - 64, 1024 * 1024 + 1, 3 * 1024 * 1024)
        .map((bytes) => ({ kind: 'sized' as const, bytes })),
    },
  );
  return fc.record({
    op: fc.constant(op),
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant(op.method) },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    ),
    pathValues: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, slot(p.schema)]))),
    query,
    body,
    contentType: fc.oneof(
      { weight: 14, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    ),
    gzip: fc.integer({ min: 0, max: 39 }).map((n) => n === 0),
    credentials: fc.oneof(
      { weight: 14, arbitrary: fc.constant('real' as const) },
      { weight: 1, arbitrary: fc.constantFrom('missing' as const, 'wrong' as const, 'doubled' as const) },
    ),
    oddHeader: fc.option(fc.constantFrom(...ODD_HEADERS), { freq: 8 }),
  });
}
