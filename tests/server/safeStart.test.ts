import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopback, loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { users } from '../../server/db/schema.ts';
import { demoAccountsOpenWith, readDemoSeed, seedDemoAccounts } from '../../server/db/seed/demoAccounts.ts';
import { createAdmin } from '../../server/domain/admin/admins.ts';
import { hashPassword } from '../../server/domain/accounts/passwords.ts';
import { LOOPBACK_ONLY_ERROR } from '../../server/routes/dev.routes.ts';
import { createTestContext, suiteContext } from './harness.ts';
import { authHeaders, errorOf, signedIn, tokenOf, uniqueEmail } from './helpers.ts';

const run = promisify(execFile);
const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

describe('where the server listens', () => {
  it('listens on loopback outside production unless HOST is given, and everywhere in production', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).HOST).toBe('localhost');
    expect(loadConfig({}).HOST).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'production' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '127.0.0.1' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test', HOST: '::1' }).HOST).toBe('::1');
  });

  it.each(['0.0.0.0', '::', '192.168.1.20', 'example.com'])('refuses demo mode on %s with a message that says what to set', (host) => {
    expect(() => loadConfig({ NODE_ENV: 'development', HOST: host })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'development', HOST: host })).toThrow(/NODE_ENV=production[\s\S]*admin:create/);
  });

  it('knows loopback addresses from others', () => {
    for (const address of ['localhost', '127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address)).toBe(true);
    for (const address of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', '127.0.0.1.example.com', '1127.0.0.1']) {
      expect(isLoopback(address)).toBe(false);
    }
  });

  it('the real start stops before opening anything when demo mode would face the network', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lc-start-'));
    try {
      const failure = await run(process.execPath, ['server/main.ts'], {
        env: { PATH: process.env.PATH, NODE_ENV: 'development', HOST: '0.0.0.0', PORT: '0', DATA_DIR: dataDir },
      }).then(() => null, (error: { code: number; stderr: string }) => error);
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('Refusing to listen on 0.0.0.0');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('GET /api/dev/outbox', () => {
  it('answers clients on this machine', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['another machine', { remoteAddress: '203.0.113.7' }],
    ['an IPv6 neighbour', { remoteAddress: 'fe80::1' }],
    ['a proxy on this machine forwarding someone', { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '127.0.0.1' } }],
    ['a proxy using Forwarded', { remoteAddress: '::1', headers: { forwarded: 'for=127.0.0.1' } }],
  ])('refuses %s', async (_who, options) => {
    const response = await context.app.inject({ method: 'GET', url: '/api/dev/outbox', ...options });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response)).toBe(LOOPBACK_ONLY_ERROR);
  });

  it.each([
    ['SMTP_URL', 'smtp://mail.example.com:587'],
    ['SMS_PROVIDER_URL', 'https://sms.example.com/send'],
  ])('does not exist once %s sends real messages', async (variable, value) => {
    const withTransport = await createTestContext({ [variable]: value });
    try {
      const response = await withTransport.app.inject({ method: 'GET', url: '/api/dev/outbox' });
      expect(response.statusCode).toBe(404);
    } finally {
      await withTransport.close();
    }
  });
});

describe('demo accounts on a database served for real', () => {
  it('finds the demo accounts that still open with the demo password', async () => {
    const seeded = await createTestContext();
    try {
      await seedDemoAccounts(seeded.db, { nodeEnv: 'development', password: 'known-demo-password' });
      const demoEmails = readDemoSeed().accounts.map((account) => account.email.toLowerCase());
      expect((await demoAccountsOpenWith(seeded.db, 'known-demo-password')).sort()).toEqual([...demoEmails].sort());

      await seeded.db.update(users).set({ passwordHash: await hashPassword('changed by its owner') }).where(eq(users.email, demoEmails[0]));
      expect(await demoAccountsOpenWith(seeded.db, 'known-demo-password')).not.toContain(demoEmails[0]);
      expect(await demoAccountsOpenWith(seeded.db, 'another password')).toEqual([]);
    } finally {
      await seeded.close();
    }
  });
});

describe('a database once started in demo mode, started in production (issue 33 point 7)', () => {
  // Each case opens a PGlite folder twice: 20 s on this 2-core machine, near a minute under a load average of 18.
  it.each(['127.0.0.1', '0.0.0.0'])('is refused while a demo account opens with the demo password, listening on %s', async (host) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lc-demo-then-production-'));
    try {
      const seeded = await openDatabase({ dataDir });
      await seedDemoAccounts(seeded.db, { nodeEnv: 'development', password: 'demo-password' });
      await seeded.close();
      // Behind a reverse proxy, Node listens on loopback and the proxy faces the network.
      const failure = await run(process.execPath, ['server/main.ts'], {
        env: { PATH: process.env.PATH, NODE_ENV: 'production', HOST: host, PORT: '0', DATA_DIR: dataDir, TRUST_PROXY: 'true' },
        // A server that starts never exits by itself: the timeout ends it, and the test fails on its code.
        timeout: 120_000,
      }).then(() => null, (error: { code: number | null; stderr: string }) => error);
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('Refusing to start in production: these demo accounts still open with the demo password');
      expect(failure?.stderr).toContain('admin@demo.test');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('npm run admin:create', () => {
  it('creates an admin with no known password and a single-use link to choose one', async () => {
    const email = uniqueEmail('first-admin');
    const result = await createAdmin(context.db, { email, firstName: 'Ada', lastName: 'Admin' }, context.config.APP_URL);
    if (result.outcome !== 'created') throw new Error(`expected a new admin, got ${result.outcome}`);
    expect(result.passwordLink).toMatch(/^http:\/\/localhost:3000\/reset-password\/\S+$/);

    const newPassword = 'the admin chose this';
    const reset = (token: string) =>
      context.app.inject({
        method: 'PUT',
        url: '/api/v1/users/password',
        payload: { reset_password_token: token, password: newPassword, password_confirmation: newPassword },
      });
    expect((await reset(tokenOf(result.passwordLink))).statusCode).toBe(200);
    expect((await reset(tokenOf(result.passwordLink))).statusCode).toBe(422);

    const authorization = await signedIn(context, email, newPassword);
    const queue = await context.app.inject({ method: 'GET', url: '/api/v1/console/requests', headers: authHeaders(authorization) });
    expect(queue.statusCode).toBe(200);

    expect(await createAdmin(context.db, { email, firstName: 'Ada', lastName: 'Admin' }, context.config.APP_URL)).toEqual({
      outcome: 'already_admin',
    });
  });

  it('runs as a command on an empty PGlite folder and prints the link', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lc-admin-'));
    try {
      const { stdout } = await run(process.execPath, ['scripts/admin-create.ts', 'boss@example.com', '--first-name', 'Bo'], {
        env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: dataDir, APP_URL: 'https://concierge.example.com' },
      });
      expect(stdout).toContain('Created the admin boss@example.com');
      expect(stdout).toMatch(/https:\/\/concierge\.example\.com\/reset-password\/\S+/);
      const refused = await run(process.execPath, ['scripts/admin-create.ts', 'not-an-email'], {
        env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: dataDir },
      }).then(() => null, (error: { code: number; stderr: string }) => error);
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toContain('Usage: npm run admin:create');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
