import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
export { COMMITTED_DOCUMENT } from './contractComments.ts';

/** The document as text, the way docs/openapi.json holds it. */
export function documentText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * A fresh document from an app with the default configuration (on an in-memory database): what a server answers at
 * /api/openapi.json unless its configuration changes a documented figure (AUTH_RATE_LIMIT).
 */
export async function generateDocumentText(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lc-openapi-'));
  const database = await openDatabase({});
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, STATIC_DIR: join(dataDir, 'no-static') });
  const app = await buildApp({ config, database });
  try {
    await app.ready();
    return documentText(await app.openApiDocument());
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
