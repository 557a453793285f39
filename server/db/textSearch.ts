import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/*
 * PostgreSQL full-text search (issue 32 point 5), the same on PostgreSQL and PGlite. The GIN indexes of the schema are
 * built on `searchDocument` and the queries match against `searchDocument` of the same columns: an expression that
 * differs (another configuration, another order of columns) cannot use the index.
 */

/** The text of the columns as one tsvector, in English (stemmed: 'registering' finds 'registration'). */
export function searchDocument(...columns: AnyPgColumn[]): SQL {
  const text = sql.join(
    columns.map((column) => (column.notNull ? sql`${column}` : sql`coalesce(${column}, '')`)),
    sql` || ' ' || `,
  );
  return sql`to_tsvector('english', ${text})`;
}

/** Enough words for any real search; a longer query is cut, not refused (the contract bounds its length). */
const MAX_SEARCH_WORDS = 10;

/**
 * What was typed, as a tsquery that every word must match the start of a word of the document ('car reg' finds
 * 'Car registration'). Only letters and digits make words, so the input can never be tsquery syntax; null when it
 * has none (nothing can match). A word the dictionary drops ('the') asks for nothing.
 */
export function prefixQuery(typed: string): SQL | null {
  const words = typed.toLowerCase().match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_SEARCH_WORDS);
  if (!words) return null;
  return sql`to_tsquery('english', ${words.map((word) => `${word}:*`).join(' & ')})`;
}

/** The document matches the query. */
export function matches(document: SQL, query: SQL): SQL {
  return sql`${document} @@ ${query}`;
}
