import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createMailTransport } from '../../server/adapters/mail.ts';
import { createSmsTransport } from '../../server/adapters/sms.ts';
import { outbox } from '../../server/db/schema.ts';
import type { OutgoingMessage } from '../../server/domain/ports/messageTransport.ts';
import {
  type Transports,
  deliverPendingMessages,
  enqueueMessage,
  retryDelayMs,
  startOutboxWorker,
} from '../../server/domain/shared/outbox.ts';
import type { Log } from '../../server/logging.ts';
import { createTestContext, suiteContext } from './harness.ts';
import { outboxTo, registerUser, uniqueEmail } from './helpers.ts';

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

const silentLog: Log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

/** Transports that remember what they were given, and fail while `failing` is set. */
function recordingTransports() {
  const sent: Array<OutgoingMessage & { channel: string }> = [];
  const state = { failing: false };
  const transport = (channel: string) => ({
    async send(message: OutgoingMessage) {
      if (state.failing) throw new Error('provider unavailable');
      sent.push({ channel, ...message });
    },
  });
  const transports: Transports = { email: transport('email'), sms: transport('sms') };
  return { sent, state, transports };
}

async function requestReset(email: string) {
  await context.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email } } });
}

/** Leaves only the rows written next pending: earlier rows (and a sign-up's confirmation e-mail) are marked delivered. */
async function deliverEverythingPending() {
  await deliverPendingMessages(context.db, recordingTransports().transports, silentLog, new Date(Date.now() + 86_400_000));
}

describe('outbox delivery', () => {
  it('delivers the reset e-mail with its link, once', async () => {
    const email = await registerUser(context);
    await deliverEverythingPending();
    await requestReset(email);
    const [pending] = await outboxTo(context, email);
    expect(pending.delivered_at).toBeNull();

    const { sent, transports } = recordingTransports();
    expect(await deliverPendingMessages(context.db, transports, silentLog)).toEqual({ delivered: 1, failed: 0 });
    expect(sent).toEqual([
      { channel: 'email', to: email, subject: 'Reset your Life Concierge password', text: pending.text },
    ]);
    expect(sent[0].text).toContain(pending.links[0]);

    const [delivered] = await outboxTo(context, email);
    expect(delivered.delivered_at).not.toBeNull();
    expect(await deliverPendingMessages(context.db, transports, silentLog)).toEqual({ delivered: 0, failed: 0 });
    expect(sent).toHaveLength(1);
  });

  it('keeps a failed message, with the error, and retries it after the backoff', async () => {
    const email = await registerUser(context);
    await deliverEverythingPending();
    await requestReset(email);
    const { sent, state, transports } = recordingTransports();

    state.failing = true;
    const now = new Date();
    expect(await deliverPendingMessages(context.db, transports, silentLog, now)).toEqual({ delivered: 0, failed: 1 });
    const resetMail = and(eq(outbox.recipient, email), eq(outbox.subject, 'Reset your Life Concierge password'));
    const [failed] = await context.db.select().from(outbox).where(resetMail);
    expect(failed).toMatchObject({ attempts: 1, lastError: 'provider unavailable', deliveredAt: null });
    expect(failed.nextAttemptAt.getTime()).toBe(now.getTime() + retryDelayMs(1));

    state.failing = false;
    expect(await deliverPendingMessages(context.db, transports, silentLog, now)).toEqual({ delivered: 0, failed: 0 });
    const later = new Date(now.getTime() + retryDelayMs(1));
    expect(await deliverPendingMessages(context.db, transports, silentLog, later)).toEqual({ delivered: 1, failed: 0 });
    expect(sent.map((message) => message.to)).toEqual([email]);
    const [delivered] = await context.db.select().from(outbox).where(resetMail);
    expect(delivered).toMatchObject({ attempts: 2, lastError: null });
  });

  it('backs off exponentially up to an hour', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(20)).toBe(3_600_000);
  });

  it('writes no message when its cause is rolled back', async () => {
    const email = uniqueEmail('rolled-back');
    await expect(
      context.db.transaction(async (tx) => {
        await enqueueMessage(tx, { channel: 'email', to: email, subject: 'Never', text: 'never sent' });
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(await outboxTo(context, email)).toEqual([]);
  });

  it('runs as a worker until stopped', async () => {
    const email = await registerUser(context);
    await deliverEverythingPending();
    const { sent, transports } = recordingTransports();
    const worker = startOutboxWorker({ db: context.db, transports, log: silentLog, intervalMs: 20 });
    try {
      await requestReset(email);
      await vi.waitFor(() => expect(sent.map((message) => message.to)).toEqual([email]), { timeout: 5000 });
    } finally {
      await worker.stop();
    }
    await requestReset(email);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toHaveLength(1);
  });
});

describe('GET /api/dev/outbox', () => {
  it('lists newest first, filters by recipient and honours the limit', async () => {
    const email = await registerUser(context);
    await requestReset(email);
    await requestReset(email);
    // The two reset e-mails, after the sign-up's confirmation e-mail.
    const messages = await outboxTo(context, email.toUpperCase());
    expect(messages.map((message) => message.subject)).toEqual([
      'Reset your Life Concierge password',
      'Reset your Life Concierge password',
      'Confirm your e-mail address for Life Concierge',
    ]);
    expect(messages[0].id).toBeGreaterThan(messages[1].id);
    expect(messages[0].links[0]).not.toBe(messages[1].links[0]);

    const limited = await context.app.inject({ method: 'GET', url: '/api/dev/outbox', query: { to: email, limit: '1' } });
    expect((limited.json() as { messages: unknown[] }).messages).toHaveLength(1);
    const all = await context.app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect((all.json() as { messages: unknown[] }).messages.length).toBeGreaterThanOrEqual(2);
  });

  it('does not exist in production', async () => {
    const production = await createTestContext({ NODE_ENV: 'production' });
    try {
      const response = await production.app.inject({ method: 'GET', url: '/api/dev/outbox' });
      expect(response.statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe('transports', () => {
  const message: OutgoingMessage = { to: '2125551212', subject: null, text: 'Your code is 123456.' };

  it('log transports only log when no provider is configured', async () => {
    const log: Log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    await createSmsTransport({}, log).send(message);
    await createMailTransport({ APP_URL: 'http://localhost:3000' }, log).send({ ...message, to: 'a@example.com', subject: 'Hi' });
    expect(log.info).toHaveBeenCalledTimes(2);
    expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ to: 'a@example.com', subject: 'Hi' }), expect.any(String));
  });

  it('posts {to, text} as JSON to SMS_PROVIDER_URL and fails on a non-2xx answer', async () => {
    const received: unknown[] = [];
    let status = 200;
    const server = createHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ method: request.method, type: request.headers['content-type'], body: JSON.parse(body) });
        response.writeHead(status).end('{}');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
    try {
      const transport = createSmsTransport({ SMS_PROVIDER_URL: url }, silentLog);
      await transport.send(message);
      expect(received).toEqual([
        { method: 'POST', type: 'application/json', body: { to: '2125551212', text: 'Your code is 123456.' } },
      ]);
      status = 503;
      await expect(transport.send(message)).rejects.toThrow('SMS provider answered 503');
    } finally {
      server.close();
    }
  });

  it('sends e-mail through SMTP_URL', async () => {
    const { server, mails } = await fakeSmtpServer();
    const port = (server.address() as AddressInfo).port;
    try {
      const transport = createMailTransport(
        { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`, APP_URL: 'https://app.example.com' },
        silentLog,
      );
      await transport.send({ to: 'reader@example.com', subject: 'Reset your password', text: 'https://x.test/reset' });
      expect(mails).toHaveLength(1);
      expect(mails[0].from).toBe('<no-reply@app.example.com>');
      expect(mails[0].to).toEqual(['<reader@example.com>']);
      expect(mails[0].data).toContain('Subject: Reset your password');
      expect(mails[0].data).toContain('https://x.test/reset');
    } finally {
      server.close();
    }
  });
});

/** Just enough SMTP to accept one message at a time and remember it. */
async function fakeSmtpServer(): Promise<{ server: Server; mails: Array<{ from: string; to: string[]; data: string }> }> {
  const mails: Array<{ from: string; to: string[]; data: string }> = [];
  const server = createTcpServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline = buffer.indexOf('\r\n');
      while (newline !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        newline = buffer.indexOf('\r\n');
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push(current);
            current = { from: '', to: [], data: '' };
            socket.write('250 queued\r\n');
          } else {
            current.data += `${line}\n`;
          }
          continue;
        }
        switch (line.slice(0, 4).toUpperCase()) {
          case 'MAIL':
            current.from = line.replace(/^MAIL FROM:\s*/i, '').split(' ')[0];
            socket.write('250 ok\r\n');
            break;
          case 'RCPT':
            current.to.push(line.replace(/^RCPT TO:\s*/i, ''));
            socket.write('250 ok\r\n');
            break;
          case 'DATA':
            inData = true;
            socket.write('354 go ahead\r\n');
            break;
          case 'QUIT':
            socket.end('221 bye\r\n');
            break;
          default: // EHLO, HELO, RSET, NOOP
            socket.write('250 ok\r\n');
        }
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, mails };
}
