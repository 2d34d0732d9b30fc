import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { $ZodType } from 'zod/v4/core';
import { isSharedAnswer } from '../lib/shared-answer.js';

type JsonSchema = Record<string, unknown>;

/**
 * Answers are written by fast-json-stringify from each route's zod response schema, turned into JSON
 * Schema once when the route is compiled: no zod parse of every answer. Request validation stays zod.
 */
export const serializerCompiler: FastifySerializerCompiler<$ZodType | { properties: $ZodType }> = ({ schema }) =>
  writtenOnce(
    fastJson(
      serializerSchema(schema instanceof $ZodType ? schema : schema.properties) as unknown as Parameters<
        typeof fastJson
      >[0],
    ),
  );

/**
 * An answer shared by every call that gets it until what it shows changes (a top page) is written
 * once, and its text kept as long as the answer is.
 */
function writtenOnce(write: (data: unknown) => string): (data: unknown) => string {
  const written = new WeakMap<object, string>();
  return (data) => {
    if (typeof data !== 'object' || data === null || !isSharedAnswer(data)) return write(data);
    let json = written.get(data);
    if (json === undefined) written.set(data, (json = write(data)));
    return json;
  };
}

/**
 * The same writer, after a zod check of each answer against its schema: under NODE_ENV=test (every
 * suite), so an answer that breaks the contract fails loudly there (a 500) instead of being bent to
 * fit by the writer.
 */
export const checkingSerializerCompiler: FastifySerializerCompiler<$ZodType | { properties: $ZodType }> = (route) => {
  const write = serializerCompiler(route);
  const schema = (route.schema instanceof $ZodType ? route.schema : route.schema.properties) as z.ZodType;
  return (data) => {
    schema.parse(data);
    return write(data);
  };
};

/** The JSON Schema fast-json-stringify writes an answer of `schema` by: its output shape, without checks. */
export function serializerSchema(schema: $ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return forWriting(json) as JsonSchema;
}

// Checks only: the answer is ours, and fast-json-stringify's unions match with ajv, which must pick the branch zod would.
const CHECKS = new Set([
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'description',
  'examples',
]);

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

function forWriting(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forWriting);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (CHECKS.has(key)) continue;
    // A zod object strips unknown keys rather than refusing them: so does fast-json-stringify without this.
    if (key === 'additionalProperties' && value === false) continue;
    // Named schemas (`definitions`) are keyed by name: their keys are not keywords.
    if (key === 'definitions' || key === 'properties') {
      out[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, forWriting(v)]));
      continue;
    }
    out[key] = forWriting(value);
  }
  keepPropertyOrder(out);
  return anything(out) ?? primitiveUnion(out) ?? nullableObject(out) ?? out;
}

/**
 * fast-json-stringify writes required properties before optional ones; zod and JSON.stringify keep the
 * contract's order. Where that would move a property, `required` goes (a missing one is then left out).
 */
function keepPropertyOrder(schema: JsonSchema): void {
  if (!Array.isArray(schema.required) || typeof schema.properties !== 'object') return;
  const required = new Set(schema.required as string[]);
  const keys = Object.keys(schema.properties as JsonSchema);
  const firstOptional = keys.findIndex((k) => !required.has(k));
  if (firstOptional >= 0 && keys.slice(firstOptional).some((k) => required.has(k))) delete schema.required;
}

/** A union with an unconstrained branch (`unknown | null`) is anything: JSON.stringify writes it. */
function anything(schema: JsonSchema): JsonSchema | undefined {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches) || !branches.some((b) => Object.keys(b as JsonSchema).length === 0)) return undefined;
  return without(schema, 'anyOf', 'oneOf');
}

/**
 * A union of plain values (`3 | 4 | null`, a nullable string) is written by the value's own type, as
 * JSON.stringify writes it: one `type` list spares fast-json-stringify an ajv match per value.
 */
function primitiveUnion(schema: JsonSchema): JsonSchema | undefined {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches)) return undefined;
  const types = new Set<string>();
  for (const branch of branches as JsonSchema[]) {
    if (Object.keys(without(branch, 'type', 'const', 'enum')).length > 0) return undefined;
    const listed: unknown[] = Array.isArray(branch.type) ? branch.type : [branch.type];
    if (!listed.every((t) => typeof t === 'string' && PRIMITIVES.has(t))) return undefined;
    for (const t of listed as string[]) types.add(t);
  }
  // integer ⊂ number: fast-json-stringify rounds integers, which a number in the union must not be.
  if (types.has('number')) types.delete('integer');
  return { ...without(schema, 'anyOf', 'oneOf'), type: [...types] };
}

/** An object or list that may be null is written with `nullable`, which needs no ajv match either. */
function nullableObject(schema: JsonSchema): JsonSchema | undefined {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const [first, second] = branches as JsonSchema[];
  const value = first!.type === 'null' && Object.keys(first!).length === 1 ? second! : first!;
  const none = value === first ? second! : first!;
  if (none.type !== 'null' || Object.keys(none).length !== 1) return undefined;
  if (value.type !== 'object' && value.type !== 'array') return undefined;
  return { ...without(schema, 'anyOf', 'oneOf'), ...value, nullable: true };
}

function without(schema: JsonSchema, ...keys: string[]): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}
