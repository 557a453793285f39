import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type OpenApiDocument, mediaTypeOf } from './document.ts';

/**
 * Where each server process of a test run writes the route x status pairs it saw, as <suite>-<process>.json (read by
 * scripts/openapi-coverage.ts). Not under test-results/, which Playwright empties as it starts.
 */
export const COVERAGE_DIR = join(import.meta.dirname, '../../openapi-coverage');
export type CoverageSuite = 'server' | 'e2e';

/** Each suite starts its run without the files of its previous run (tests/server/openapiCoverage.setup.ts, tests/e2e). */
export function clearCoverage(suite: CoverageSuite) {
  if (!existsSync(COVERAGE_DIR)) return;
  for (const name of readdirSync(COVERAGE_DIR)) if (name.startsWith(`${suite}-`)) rmSync(join(COVERAGE_DIR, name));
}

/** The coverage files of a suite, or of every suite. */
export function coverageFiles(suite?: CoverageSuite): string[] {
  if (!existsSync(COVERAGE_DIR)) return [];
  return readdirSync(COVERAGE_DIR)
    .filter((name) => name.endsWith('.json') && (!suite || name.startsWith(`${suite}-`)))
    .map((name) => join(COVERAGE_DIR, name));
}

/** What one process saw, as written to its coverage file. */
export interface CoverageRecord {
  /** `GET /api/v1/requests/{id} 200` -> how many answers. */
  seen: Record<string, number>;
  /** Answers whose body the document does not allow. */
  mismatches: string[];
}

const record: CoverageRecord = { seen: {}, mismatches: [] };
const processId = `${process.pid}-${randomUUID().slice(0, 8)}`;

function saveRecord(suite: CoverageSuite) {
  mkdirSync(COVERAGE_DIR, { recursive: true });
  writeFileSync(join(COVERAGE_DIR, `${suite}-${processId}.json`), JSON.stringify(record, null, 1));
}

export class ResponseMismatchError extends Error {}

/**
 * Checks answers against the OpenAPI document (test runs only: the server suites and the end-to-end server): the JSON
 * body of every documented route x status must be what the document says, or the answer becomes a failure. Every
 * pair seen is recorded, documented or not, so that a run can tell which documented answers no test reached (in the
 * suite's coverage file; a check made without a suite records nothing there).
 */
export function createResponseCheck(document: OpenApiDocument, suite: CoverageSuite | null) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  const validators = new Map<string, ValidateFunction | null>();
  const kept: CoverageRecord = suite ? record : { seen: {}, mismatches: [] };

  function validatorOf(path: string, method: string, status: number): ValidateFunction | null {
    const key = `${method} ${path} ${status}`;
    if (!validators.has(key)) {
      const content = document.paths[path]?.[method.toLowerCase()]?.responses[String(status)]?.content;
      const schema = content?.[mediaTypeOf(path)]?.schema;
      validators.set(key, schema ? ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'))) : null);
    }
    return validators.get(key)!;
  }

  /** Records the answer and throws a ResponseMismatchError when its body breaks the document. */
  return function checkResponse({ method, path, status, contentType, payload }: {
    method: string;
    /** The route in the document's form, e.g. /api/v1/requests/{id}. */
    path: string;
    status: number;
    contentType: string | undefined;
    payload: unknown;
  }) {
    if (!document.paths[path]?.[method.toLowerCase()]) return;
    const pair = `${method} ${path} ${status}`;
    const isNew = kept.seen[pair] === undefined;
    kept.seen[pair] = (kept.seen[pair] ?? 0) + 1;
    const validate = validatorOf(path, method, status);
    let problem: string | null = null;
    if (validate) {
      if (!contentType?.startsWith(mediaTypeOf(path)) || typeof payload !== 'string') {
        problem = `answered ${contentType ?? 'no content type'} where the document has ${mediaTypeOf(path)}`;
      } else {
        let body: unknown;
        try {
          body = JSON.parse(payload);
        } catch {
          problem = 'answered text that is not JSON';
        }
        if (!problem && !validate(body)) problem = `answered a body the document does not allow: ${ajv.errorsText(validate.errors)}`;
      }
    }
    if (problem) {
      const message = `${pair} ${problem}`;
      kept.mismatches.push(message);
      if (suite) saveRecord(suite);
      throw new ResponseMismatchError(`OpenAPI response check: ${message}. Fix the answer or its schema (then run npm run openapi).`);
    }
    if (isNew && suite) saveRecord(suite);
  };
}
