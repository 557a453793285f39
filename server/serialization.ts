import fastJson from 'fast-json-stringify';
import type { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';

/**
 * Answers are written by a serializer compiled once per route and status from the contract's schema (fast-json-stringify
 * on the schema's JSON Schema, what Fastify does for JSON Schema routes) rather than by checking each answer against
 * the zod schema and then JSON.stringify-ing it, which cost more than the rest of a signed-in read. As with zod, only
 * the schema's properties are written. A response schema that JSON Schema cannot express fails the app's start.
 */
export const serializerCompiler: typeof zodSerializerCompiler = (route) => {
  const jsonSchema = z.toJSONSchema(route.schema as z.ZodMiniType, { io: 'output', target: 'draft-7' });
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
};
