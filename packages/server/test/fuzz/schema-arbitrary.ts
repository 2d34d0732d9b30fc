import fc from 'fast-check';
import { hostileValue } from './hostile.js';

/** The part of JSON Schema the OpenAPI document uses. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
}

/** Turns `#/components/schemas/X` into its schema. */
export type Resolve = (ref: string) => JsonSchema;

/** Real arrays and strings stay small: the limits themselves are probed by the hostile values. */
const ARRAY_CAP = 4;
const STRING_CAP = 40;

/**
 * Values shaped like a schema says (right types, lengths, patterns), each node sometimes swapped for
 * a hostile one (`hostility` of 0 never, 1 always), so a request gets past validation often enough
 * to reach the service, and also fails it in every way.
 */
export function schemaArbitrary(schema: JsonSchema, resolve: Resolve, hostility: number): fc.Arbitrary<unknown> {
  const valid = validArbitrary(schema, resolve, hostility, 0);
  if (hostility <= 0) return valid;
  const weight = Math.max(1, Math.round((1 - hostility) * 10));
  return fc.oneof({ weight, arbitrary: valid }, { weight: Math.max(1, 10 - weight), arbitrary: hostileValue });
}

function validArbitrary(schema: JsonSchema, resolve: Resolve, hostility: number, depth: number): fc.Arbitrary<unknown> {
  const child = (s: JsonSchema) =>
    depth > 6 ? fc.constant(null) : schemaArbitrary(s, resolve, hostility).map((v) => v);
  if (schema.$ref)
    return fc.constant(null).chain(() => validArbitrary(resolve(schema.$ref!), resolve, hostility, depth + 1));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validArbitrary(s, resolve, hostility, depth + 1)));
  if (schema.allOf?.length) return validArbitrary(Object.assign({}, ...schema.allOf), resolve, hostility, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER, -(2 ** 31)),
        max: Math.min(schema.maximum ?? 1_000_000, 2 ** 31 - 1),
      });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e9,
        max: Math.min(schema.maximum ?? 1e9, 1e15),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? child(schema.items) : fc.jsonValue({ maxDepth: 2 }), {
        minLength: Math.min(schema.minItems ?? 0, ARRAY_CAP),
        maxLength: Math.min(schema.maxItems ?? ARRAY_CAP, ARRAY_CAP),
      });
    case 'object':
      return objectArbitrary(schema, child);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(schema: JsonSchema, child: (s: JsonSchema) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const known = fc.record(Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, child(s)])), {
    requiredKeys: (schema.required ?? []).filter((key) => key in properties),
  });
  const extra =
    typeof schema.additionalProperties === 'object'
      ? fc.dictionary(fc.string({ maxLength: 12 }), child(schema.additionalProperties), { maxKeys: ARRAY_CAP })
      : fc.constant({});
  return fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...a }));
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? STRING_CAP, STRING_CAP));
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { maxLength });
  return fc.string({ unit: 'grapheme', minLength, maxLength });
}
