// Which route x status pairs of the OpenAPI document the test runs reached (issue 30 point 4). The server suites and
// the end-to-end server write openapi-coverage/<suite>-*.json as they check answers against the document (each suite's
// last run); this reads them all with docs/openapi.json. Usage: node scripts/openapi-coverage.ts (after a test run).
import { readFileSync } from 'node:fs';
import { COMMITTED_DOCUMENT } from '../server/openapi/generate.ts';
import { COVERAGE_DIR, type CoverageRecord, coverageFiles } from '../server/openapi/responseCheck.ts';
import type { OpenApiDocument } from '../server/openapi/document.ts';

const document = JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')) as OpenApiDocument;
const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).flatMap(([method, operation]) => Object.keys(operation.responses).map((status) => `${method.toUpperCase()} ${path} ${status}`)),
);
const files = coverageFiles();
if (files.length === 0) {
  console.error(`No coverage files in ${COVERAGE_DIR}: run the server suites or the end-to-end tests first.`);
  process.exit(1);
}
const seen = new Map<string, number>();
const mismatches = new Set<string>();
for (const file of files) {
  const record = JSON.parse(readFileSync(file, 'utf8')) as CoverageRecord;
  for (const [pair, count] of Object.entries(record.seen)) seen.set(pair, (seen.get(pair) ?? 0) + count);
  for (const mismatch of record.mismatches) mismatches.add(mismatch);
}
const covered = documented.filter((pair) => seen.has(pair));
const uncovered = documented.filter((pair) => !seen.has(pair));
const undocumented = [...seen.keys()].filter((pair) => !documented.includes(pair)).sort();

console.log(`${files.length} coverage files; ${covered.length} of ${documented.length} documented route x status pairs reached (${Math.round((100 * covered.length) / documented.length)}%).`);
if (uncovered.length > 0) console.log(`\nDocumented, reached by no test (${uncovered.length}):\n${uncovered.map((pair) => `  ${pair}`).join('\n')}`);
if (undocumented.length > 0) console.log(`\nAnswered but not documented (${undocumented.length}):\n${undocumented.map((pair) => `  ${pair}`).join('\n')}`);
if (mismatches.size > 0) {
  console.log(`\nAnswers the document does not allow (${mismatches.size}):\n${[...mismatches].map((line) => `  ${line}`).join('\n')}`);
  process.exitCode = 1;
}
