import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type AnyColumn, type SQL, getTableName, sql } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

/** The one database type the domain sees, whichever engine is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: domain functions accept either. */
export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute' | 'query'>;

/**
 * A query of the hot path, built (and, on PostgreSQL, named for server-side preparation) once per database rather
 * than at every call: `const lookup = preparedFor((db) => db.select()...prepare('name'))`, then `lookup(db).execute()`.
 */
export function preparedFor<Prepared>(prepare: (db: Executor) => Prepared): (db: Executor) => Prepared {
  const byDatabase = new WeakMap<Executor, Prepared>();
  return (db) => {
    let prepared = byDatabase.get(db);
    if (!prepared) {
      prepared = prepare(db);
      byDatabase.set(db, prepared);
    }
    return prepared;
  };
}

/**
 * A statement drizzle's builders cannot express (a write inside WITH, say), written in SQL and prepared once per
 * database as `preparedFor` does; `sql.placeholder(name)` marks its parameters. It answers the driver's rows.
 */
export function preparedStatement<Row extends Record<string, unknown>>(name: string, statement: SQL) {
  const query = new PgDialect().sqlToQuery(statement);
  return preparedFor((db) => {
    const prepared = (db as Database)._.session.prepareQuery(query, undefined, name, false);
    return { execute: async (values: Record<string, unknown>) => (await prepared.execute(values)) as { rows: Row[] } };
  });
}

/**
 * A column named with its table. Drizzle writes bare column names in a one-table select, also inside the `sql` of its
 * fields; a subquery there must name every column this way, or `"id"` means whichever table is nearest.
 */
export function qualified(column: AnyColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/** PostgreSQL's unique_violation, as either engine's driver reports it (drizzle wraps it as the `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  const codeOf = (value: unknown) => (value as { code?: unknown } | null)?.code;
  return codeOf(error) === '23505' || codeOf((error as { cause?: unknown } | null)?.cause) === '23505';
}

export interface DatabaseHandle {
  db: Database;
  engine: 'pglite' | 'postgres';
  /** A PostgreSQL connection string when the engine is postgres (used for LISTEN/NOTIFY). */
  url?: string;
  /**
   * PGlite's own LISTEN: `onPayload` hears each NOTIFY of the channel as its statement commits, before that statement's
   * promise resolves. PostgreSQL needs a dedicated connection instead (see startRealtimeHub).
   */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Opens PostgreSQL when a URL is given, otherwise embedded PGlite: in `dataDir` when given, in memory when not.
 * Migrations are applied before the handle is returned.
 */
export async function openDatabase(options: { url?: string; dataDir?: string }): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle client dropped by the server (restart, failover) must not crash the process; the pool reconnects.
    pool.on('error', (error) => console.warn('PostgreSQL idle client error:', error.message));
    const db = drizzlePg({ client: pool, schema });
    await migratePg(db, { migrationsFolder });
    return { db: db as unknown as Database, engine: 'postgres', url: options.url, close: () => pool.end() };
  }
  // The console's search reads trigram indexes (migration 0025): PGlite carries the extension in its own build.
  const extensions = { pg_trgm };
  let client: PGlite;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    client = new PGlite(join(options.dataDir, 'pglite'), { extensions });
  } else {
    client = new PGlite({ extensions });
  }
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Database,
    engine: 'pglite',
    listen: (channel, onPayload) => client.listen(channel, onPayload),
    close: () => client.close(),
  };
}
