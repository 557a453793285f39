import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailTransport } from '../../server/adapters/mail.ts';
import { createSmsTransport } from '../../server/adapters/sms.ts';
import { errorForLog, redactUrl } from '../../server/logging.ts';
import { type TestContext, createTestContext } from './harness.ts';
import {
  PASSWORD,
  authHeaders,
  latestLink,
  latestSmsCode,
  registerUser,
  signInRequest,
  signUpRequest,
  signedIn,
  tokenOf,
  uniqueEmail,
} from './helpers.ts';

/** Issue 9 point 6: whatever happens, no password, hash, token, code or link reaches a log line. */

let context: TestContext;
const lines: string[] = [];
/** Everything that must never be logged, gathered as the test produces it. */
const secrets = new Set<string>([PASSWORD]);

beforeAll(async () => {
  context = await createTestContext({ LOG_LEVEL: 'debug', AUTH_RATE_LIMIT: '1000' }, { logStream: { write: (line) => lines.push(line) } });
});
afterAll(() => context.close());

describe('secrets never reach the logs', () => {
  it('through sign-in, reset, unlock, MFA codes, live-update tickets and a failed insert', async () => {
    const email = await registerUser(context);
    const authorization = await signedIn(context, email);
    secrets.add(authorization.replace('Bearer ', ''));
    expect((await signInRequest(context, email, 'a wrong password')).statusCode).toBe(401);

    await context.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email } } });
    const resetToken = tokenOf(await latestLink(context, email));
    secrets.add(resetToken);
    const newPassword = 'a brand new password';
    secrets.add(newPassword);
    const reset = await context.app.inject({
      method: 'PUT',
      url: '/api/v1/users/password',
      payload: { reset_password_token: resetToken, password: newPassword, password_confirmation: newPassword },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await context.app.inject({ method: 'GET', url: `/api/v1/users/unlock?unlock_token=${resetToken}` });
    // The e-mailed link itself, opened: the page's address carries the token.
    await context.app.inject({ method: 'GET', url: `/reset-password/${resetToken}` });

    const signedInAgain = await signedIn(context, email, newPassword);
    secrets.add(signedInAgain.replace('Bearer ', ''));
    const phone = '2125550123';
    await context.app.inject({ method: 'POST', url: '/api/v1/mfa', headers: authHeaders(signedInAgain), payload: { mfa_number: phone } });
    secrets.add(await latestSmsCode(context, phone));

    const ticket = await context.app.inject({ method: 'POST', url: '/api/v1/events/ticket', headers: authHeaders(signedInAgain) });
    secrets.add(ticket.json().ticket);
    await context.app.inject({ method: 'GET', url: `/api/v1/events?ticket=${encodeURIComponent(ticket.json().ticket)}x` });

    // A database failure on the insert that carries a password hash: its parameters must not be logged.
    await context.db.execute(sql`ALTER TABLE users ADD CONSTRAINT refuse_new_users CHECK (id < 0) NOT VALID`);
    const failed = await signUpRequest(context, { email: uniqueEmail('failing') });
    await context.db.execute(sql`ALTER TABLE users DROP CONSTRAINT refuse_new_users`);
    expect(failed.statusCode).toBe(500);

    const logged = lines.join('');
    expect(logged).toContain('request failed');
    expect(logged).toContain('refuse_new_users');
    expect(logged).toContain('unlock_token=[redacted]');
    expect(logged).toContain('/reset-password/[redacted]');
    expect(logged).not.toContain('$argon2');
    for (const secret of secrets) expect(logged).not.toContain(secret);
  });

  it('the outbox log transports log who and what about, never the text', async () => {
    const logged: unknown[] = [];
    const log = { info: (entry: unknown) => logged.push(entry), warn: () => {}, error: () => {} };
    const transports = {
      email: createMailTransport({ SMTP_URL: undefined, APP_URL: 'http://localhost' }, log),
      sms: createSmsTransport({ SMS_PROVIDER_URL: undefined }, log),
    };
    await transports.email.send({ to: 'a@b.test', subject: 'Reset', text: 'http://localhost/reset-password/SECRET' });
    await transports.sms.send({ to: '2125550100', subject: null, text: 'Your code is 123456' });
    expect(JSON.stringify(logged)).not.toMatch(/SECRET|123456/);
    expect(logged).toEqual([{ to: 'a@b.test', subject: 'Reset' }, { to: '2125550100' }]);
  });
});

describe('log helpers', () => {
  it('redactUrl hides secret query values and keeps the rest', () => {
    expect(redactUrl('/api/v1/users/unlock?unlock_token=abc&x=1')).toBe('/api/v1/users/unlock?unlock_token=[redacted]&x=1');
    expect(redactUrl('/api/storage/k?expires=1&signature=abc')).toBe('/api/storage/k?expires=1&signature=[redacted]');
    expect(redactUrl('/api/v1/offerings?q=dog')).toBe('/api/v1/offerings?q=dog');
    expect(redactUrl('/api/v1/users/unlock?unlock%5Ftoken=abc')).toBe('/api/v1/users/unlock?unlock%5Ftoken=[redacted]');
  });

  it('redactUrl hides the tokens of e-mailed links in page addresses too', () => {
    expect(redactUrl('/reset-password/abc')).toBe('/reset-password/[redacted]');
    expect(redactUrl('/unlock/abc')).toBe('/unlock/[redacted]');
    expect(redactUrl('/confirm-email/abc?x=1')).toBe('/confirm-email/[redacted]?x=1');
    expect(redactUrl('/abc/unlock/7')).toBe('/[redacted]/unlock/[redacted]');
    expect(redactUrl('/requests/12')).toBe('/requests/12');
  });

  it('errorForLog keeps the query text and the cause, not the parameters or driver details', () => {
    const cause = Object.assign(new Error('new row violates check constraint'), { code: '23514', detail: 'Failing row contains (secret)' });
    const error = new Error('Failed query: insert into "users" ("password_hash") values ($1)\nparams: $argon2id$v=19$secret', { cause });
    const logged = JSON.stringify(errorForLog(error));
    expect(logged).toContain('Failed query: insert into');
    expect(logged).toContain('23514');
    expect(logged).not.toMatch(/argon2|Failing row|secret/);
  });
});
