import { readFileSync } from 'node:fs';
import { type CoverageRecord, coverageFiles } from '../../server/openapi/responseCheck.ts';

/**
 * Playwright's global teardown: the run fails if an end-to-end server answered a documented route with a body the
 * OpenAPI document does not allow (the servers check every answer, log the failure and write it to their coverage file).
 */
export default function teardown() {
  const mismatches = coverageFiles('e2e').flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as CoverageRecord).mismatches);
  if (mismatches.length > 0) {
    throw new Error(`The end-to-end servers answered ${mismatches.length} bodies the OpenAPI document does not allow:\n${mismatches.join('\n')}`);
  }
}
