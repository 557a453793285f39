// npm run admin:create -- <email> [--first-name Ada] [--last-name Lovelace]
// Creates an admin account on the configured database (DATABASE_URL, or PGlite in DATA_DIR: stop the server first,
// PGlite opens its folder from one process only) and prints a single-use link, valid for 2 hours, to set its password.
import { parseArgs } from 'node:util';
import * as z from 'zod/mini';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { createAdmin } from '../server/domain/admin/admins.ts';

const USAGE = 'Usage: npm run admin:create -- <email> [--first-name <name>] [--last-name <name>]';

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { 'first-name': { type: 'string', default: 'Admin' }, 'last-name': { type: 'string', default: 'User' } },
  });
  const email = positionals[0];
  if (positionals.length !== 1 || !z.email().safeParse(email).success) throw new ConfigError(`${USAGE}\n(an e-mail address is needed)`);

  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const result = await createAdmin(
      database.db,
      { email, firstName: values['first-name'], lastName: values['last-name'] },
      config.APP_URL,
    );
    if (result.outcome === 'created') {
      console.log(`Created the admin ${email}. Open this link within 2 hours to choose its password (it works once):`);
      console.log(`  ${result.passwordLink}`);
    } else if (result.outcome === 'promoted') {
      console.log(`${email} already had an account: it is now an admin and signs in with its own password.`);
    } else {
      console.log(`${email} is already an admin; nothing changed. Use "Forgot password" to set a new password.`);
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
