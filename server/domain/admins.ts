import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { RESET_TOKEN_TTL_MS } from './accounts.ts';
import { issueOneTimeToken } from './oneTimeTokens.ts';
import { appLink } from './outbox.ts';
import { hashPassword } from './passwords.ts';
import { newToken } from './tokens.ts';
import { normalisedEmail } from './users.ts';

export interface AdminAccount {
  email: string;
  firstName: string;
  lastName: string;
}

export type CreateAdminResult =
  | { outcome: 'created'; passwordLink: string }
  | { outcome: 'promoted' }
  | { outcome: 'already_admin' };

/**
 * The operator's way to the first admin of a production database (`npm run admin:create`): no seeded password.
 * A new account gets a password nobody knows and a single-use link to choose one (the reset-password page); an
 * existing account keeps its password and becomes an admin.
 */
export async function createAdmin(db: Database, account: AdminAccount, appUrl: string, now = new Date()): Promise<CreateAdminResult> {
  const email = normalisedEmail(account.email);
  const unusablePasswordHash = await hashPassword(newToken());
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, email));
    if (existing) {
      if (existing.role === 'admin') return { outcome: 'already_admin' } as const;
      await tx.update(users).set({ role: 'admin' }).where(eq(users.id, existing.id));
      return { outcome: 'promoted' } as const;
    }
    const [created] = await tx
      .insert(users)
      .values({
        email,
        passwordHash: unusablePasswordHash,
        firstName: account.firstName,
        lastName: account.lastName,
        role: 'admin',
        termsAcceptedAt: now,
        onboardedAt: now,
      })
      .returning({ id: users.id });
    const token = await issueOneTimeToken(tx, created.id, 'password_reset', RESET_TOKEN_TTL_MS, now);
    return { outcome: 'created', passwordLink: appLink(appUrl, `/reset-password/${token}`) } as const;
  });
}
