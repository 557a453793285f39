// Writes docs/openapi.json, the OpenAPI document of /api/v1 generated from the routes' own schemas (issue 30).
// Usage: npm run openapi. The server test tests/server/openapi.test.ts fails while the committed file is out of date.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { COMMITTED_DOCUMENT, generateDocumentText } from '../server/openapi/generate.ts';

const text = await generateDocumentText();
writeFileSync(COMMITTED_DOCUMENT, text);
const document = JSON.parse(text) as { paths: Record<string, Record<string, unknown>> };
const operations = Object.values(document.paths).reduce((total, methods) => total + Object.keys(methods).length, 0);
console.log(`${relative(process.cwd(), COMMITTED_DOCUMENT)}: ${Buffer.byteLength(text)} bytes, ${operations} operations`);
