import type { Database, Executor } from '../../db/client.ts';
import { transactionRefusingClashes } from '../shared/userFacingError.ts';

/** What the catalogue's admin writes (adminOfferings.ts, adminSurveys.ts) share. */

export const CONCURRENT_CLASH_ERROR = 'Another change took this name at the same moment. Please try again.';

/** A write that a concurrent one beat to a unique name is a 409 too. */
export function uniqueWrite<T>(db: Database, write: (tx: Executor) => Promise<T>): Promise<T> {
  return transactionRefusingClashes(db, CONCURRENT_CLASH_ERROR, write);
}

/** Whether a partial update sets any column (an update must set one). */
export function givesAny(columns: Record<string, unknown>): boolean {
  return Object.values(columns).some((value) => value !== undefined);
}
