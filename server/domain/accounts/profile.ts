import { and, eq, isNull, ne } from 'drizzle-orm';
import { PROFILE_ERRORS } from '../../../src/contract/profile.ts';
import type { Database } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { invalidField } from '../shared/userFacingError.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { findUserById } from './users.ts';

/**
 * The employee edits their own account (issue 32 point 3): the name, and the password, which needs the current one
 * and ends every other session. The phone, address and interests are onboarding answers (surveys/onboarding.ts).
 */

export async function renameUser(db: Database, userId: number, { firstName, lastName }: { firstName: string; lastName: string }) {
  await db.update(users).set({ firstName, lastName }).where(eq(users.id, userId));
}

/**
 * Checks the current password, stores the new one and revokes the user's other sessions (this one stays signed in).
 * Answers the ids of the sessions it ended, so that their live streams can be closed.
 */
export async function changePassword(
  db: Database,
  { userId, sessionId, currentPassword, password }: { userId: number; sessionId: number; currentPassword: string; password: string },
  now = new Date(),
): Promise<number[]> {
  const user = await findUserById(db, userId);
  if (!user || !(await verifyPassword(user.passwordHash, currentPassword))) {
    throw invalidField('current_password', PROFILE_ERRORS.wrongCurrentPassword);
  }
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, passwordChangedAt: now }).where(eq(users.id, userId));
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, userId), ne(sessions.id, sessionId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return ended.map((session) => session.id);
  });
}
