import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { invalidFields } from '../domain/shared/userFacingError.ts';

/** Deeper than any body of the contract (the deepest is a few levels); a validator recursing further could overflow. */
export const MAX_INPUT_DEPTH = 32;

export const INPUT_PROBLEMS = {
  nul: 'must not contain a NUL character',
  loneSurrogate: 'must be valid Unicode text',
  tooDeep: 'is nested too deeply',
} as const;

const LONE_SURROGATE = /\p{Surrogate}/u;

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return INPUT_PROBLEMS.nul;
  // With the u flag a well-formed pair is one code point, so only an unpaired half matches.
  if (LONE_SURROGATE.test(text)) return INPUT_PROBLEMS.loneSurrogate;
  return null;
}

/** Objects and arrays as JSON and query parsing make them; an upload's bytes (a Buffer or a stream) are not fields. */
function isParsedStructure(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !(value instanceof Readable);
}

/**
 * The first problem in an input (a parsed body, query or params), with the dotted path of the field that holds it.
 * The walk keeps its own stack, so no input can make it recurse.
 */
export function findInputProblem(input: unknown, rootName: string): { field: string; problem: string } | null {
  const pending: Array<{ value: unknown; path: string[] }> = [{ value: input, path: [] }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    const field = () => (path.length > 0 ? path.join('.') : rootName);
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { field: field(), problem };
      continue;
    }
    if (!isParsedStructure(value)) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { field: field(), problem: INPUT_PROBLEMS.tooDeep };
    for (const [key, child] of Object.entries(value)) {
      const keyProblem = textProblem(key);
      if (keyProblem) return { field: field(), problem: keyProblem };
      pending.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/**
 * Text the database cannot store (NUL, unpaired surrogates) and nesting a validator cannot walk are refused for every
 * route in one place, before validation: a 422 naming the field, in the shape of the validation errors.
 */
export default fp(async (app) => {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const inputs = [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const;
    for (const [rootName, input] of inputs) {
      const found = findInputProblem(input, rootName);
      if (found) throw invalidFields({ [found.field]: found.problem });
    }
  });
});
