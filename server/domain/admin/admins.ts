import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { RESET_TOKEN_TTL_MS } from '../accounts/accounts.ts';
import { insertAccountWithPasswordLink, unusablePasswordHash } from './staff.ts';
import { normalisedEmail } from '../accounts/users.ts';

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
  const passwordHash = await unusablePasswordHash();
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, email));
    if (existing) {
      if (existing.role === 'admin') return { outcome: 'already_admin' } as const;
      await tx.update(users).set({ role: 'admin' }).where(eq(users.id, existing.id));
      return { outcome: 'promoted' } as const;
    }
    const { passwordLink } = await insertAccountWithPasswordLink(
      tx,
      { email, firstName: account.firstName, lastName: account.lastName, role: 'admin', passwordHash },
      { linkTtlMs: RESET_TOKEN_TTL_MS, appUrl, now },
    );
    return { outcome: 'created', passwordLink } as const;
  });
}
