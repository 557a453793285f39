import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { users, requests } from '../../server/db/schema.ts';
import { createSession } from '../../server/domain/accounts/sessions.ts';
import { MAX_UPLOAD_BYTES } from '../../src/contract/uploads.ts';
import { suiteContext } from './harness.ts';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('a tiny picture, byte for byte'),
]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const context = suiteContext();
let emailCounter = 0;

afterEach(() => {
  vi.useRealTimers();
});

/** A user inserted directly (the account routes are tested elsewhere) with a live session. */
async function signedInUser(role: 'employee' | 'concierge' | 'admin' = 'employee') {
  emailCounter += 1;
  const [user] = await context.db
    .insert(users)
    .values({
      email: `uploader${emailCounter}@example.com`,
      passwordHash: 'not-used-by-these-tests',
      firstName: 'Upload',
      lastName: `Tester${emailCounter}`,
      role,
    })
    .returning();
  const { token } = await createSession(context.db, user.id);
  return { id: user.id, headers: { authorization: token } };
}

type User = Awaited<ReturnType<typeof signedInUser>>;

async function requestOf(user: User) {
  const [request] = await context.db.insert(requests).values({ userId: user.id, name: 'Find a dog walker' }).returning();
  return request.id;
}

async function presign(user: User, filename: string, requestId?: number) {
  return context.app.inject({
    method: 'POST',
    url: '/api/v1/uploads/presigned_url',
    headers: user.headers,
    payload: { upload: { filename }, ...(requestId === undefined ? {} : { request_id: requestId }) },
  });
}

async function presigned(user: User, filename: string, requestId?: number): Promise<{ presigned_url: string; key: string }> {
  const response = await presign(user, filename, requestId);
  expect(response.statusCode).toBe(200);
  return response.json();
}

function put(url: string, payload: Buffer | Readable, contentType = 'image/png') {
  return context.app.inject({ method: 'PUT', url, payload, headers: { 'content-type': contentType } });
}

function expiringUrl(user: User, key: string) {
  return context.app.inject({ method: 'GET', url: '/api/v1/uploads/expiring_url', query: { key }, headers: user.headers });
}

async function uploaded(user: User, filename: string, bytes: Buffer, requestId?: number) {
  const { presigned_url, key } = await presigned(user, filename, requestId);
  expect((await put(presigned_url, bytes)).statusCode).toBe(204);
  return key;
}

function storedFiles() {
  return readdirSync(join(context.config.DATA_DIR, 'uploads')).filter((name) => !name.startsWith('.'));
}

describe('presign, upload, read back', () => {
  it('stores the bytes under a random key and serves them back with the detected type', async () => {
    const owner = await signedInUser();
    const { presigned_url, key } = await presigned(owner, 'Holiday photo.PNG');
    expect(key).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(presigned_url).toMatch(new RegExp(`^/api/storage/${key}\\?expires=\\d+&signature=`));

    // Nothing stored yet: not readable.
    expect((await expiringUrl(owner, key)).statusCode).toBe(404);

    // The declared type is not trusted: the bytes say PNG.
    const stored = await put(presigned_url, PNG, 'application/octet-stream');
    expect(stored.statusCode).toBe(204);

    const answer = await expiringUrl(owner, key);
    expect(answer.statusCode).toBe(200);
    const { expiring_url } = answer.json<{ expiring_url: string }>();
    const file = await context.app.inject({ method: 'GET', url: expiring_url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toBe(
      `inline; filename="Holiday photo.PNG"; filename*=UTF-8''Holiday%20photo.PNG`,
    );
  });

  it('serves a PDF as a download, with a file name that cannot break the header', async () => {
    const owner = await signedInUser();
    const key = await uploaded(owner, 'Ré"sumé\r\n;final.pdf', PDF);
    const { expiring_url } = (await expiringUrl(owner, key)).json<{ expiring_url: string }>();
    const file = await context.app.inject({ method: 'GET', url: expiring_url });
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="R__sum____final.pdf"; filename*=UTF-8''R%C3%A9%22sum%C3%A9%3Bfinal.pdf`,
    );
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });

  it('never derives the key from the file name, and keeps only a safe extension', async () => {
    const owner = await signedInUser();
    const { key: scriptKey } = await presigned(owner, '../../etc/passwd.sh');
    expect(scriptKey).toMatch(/^[0-9a-f]{32}$/);
    const { key: pdfKey } = await presigned(owner, 'contract.PDF');
    expect(pdfKey).toMatch(/^[0-9a-f]{32}\.pdf$/);
  });

  it('accepts a body sent without a content type', async () => {
    const owner = await signedInUser();
    const { presigned_url } = await presigned(owner, 'scan.pdf');
    const response = await context.app.inject({ method: 'PUT', url: presigned_url, payload: PDF });
    expect(response.statusCode).toBe(204);
  });

  it('refuses a second upload to the same key', async () => {
    const owner = await signedInUser();
    const { presigned_url } = await presigned(owner, 'a.png');
    expect((await put(presigned_url, PNG)).statusCode).toBe(204);
    const again = await put(presigned_url, PDF, 'application/pdf');
    expect(again.statusCode).toBe(409);
  });

  it('needs a session', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/presigned_url',
      payload: { upload: { filename: 'a.png' } },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('what the storage refuses', () => {
  const oversize = () => Buffer.concat([PNG, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - PNG.length)]);

  it('answers 413 to an announced oversize body and keeps nothing', async () => {
    const owner = await signedInUser();
    const { presigned_url, key } = await presigned(owner, 'huge.png');
    const filesBefore = storedFiles();
    const response = await put(presigned_url, oversize());
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: `The file is larger than the ${MAX_UPLOAD_BYTES}-byte limit.` });
    expect(storedFiles()).toEqual(filesBefore);
    expect((await expiringUrl(owner, key)).statusCode).toBe(404);
  });

  it('answers 413 to a streamed body once it passes the limit', async () => {
    const owner = await signedInUser();
    const { presigned_url } = await presigned(owner, 'huge.png');
    const filesBefore = storedFiles();
    const megabyte = Buffer.alloc(1024 * 1024);
    const chunks = [PNG, ...Array.from({ length: MAX_UPLOAD_BYTES / megabyte.length }, () => megabyte)];
    const response = await put(presigned_url, Readable.from(chunks));
    expect(response.statusCode).toBe(413);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('accepts a file of exactly the limit', async () => {
    const owner = await signedInUser();
    const { presigned_url } = await presigned(owner, 'big.png');
    const response = await put(presigned_url, Buffer.concat([PNG, Buffer.alloc(MAX_UPLOAD_BYTES - PNG.length)]));
    expect(response.statusCode).toBe(204);
  });

  it('answers 415 to a text file named .png', async () => {
    const owner = await signedInUser();
    const { presigned_url, key } = await presigned(owner, 'notes.png');
    const response = await put(presigned_url, Buffer.from('just some text, honest\n'), 'image/png');
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: 'Only images or PDFs are allowed.' });
    expect((await expiringUrl(owner, key)).statusCode).toBe(404);
  });
});

describe('signed addresses', () => {
  it('refuse an expired PUT and GET', async () => {
    const owner = await signedInUser();
    const { presigned_url, key } = await presigned(owner, 'late.png');
    const { presigned_url: onTimeUrl, key: onTimeKey } = await presigned(owner, 'on-time.png');
    expect((await put(onTimeUrl, PNG)).statusCode).toBe(204);
    const { expiring_url } = (await expiringUrl(owner, onTimeKey)).json<{ expiring_url: string }>();

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16 * 60 * 1000);
    const latePut = await put(presigned_url, PNG);
    expect(latePut.statusCode).toBe(403);
    expect(latePut.json()).toEqual({ error: 'This link has expired.' });
    expect((await context.app.inject({ method: 'GET', url: expiring_url })).statusCode).toBe(403);
    expect((await expiringUrl(owner, key)).statusCode).toBe(404);
  });

  it('refuse a tampered signature, key, expiry, type or file name', async () => {
    const owner = await signedInUser();
    const { presigned_url } = await presigned(owner, 'a.png');
    const other = await presigned(owner, 'b.png');
    const url = new URL(presigned_url, 'http://localhost');
    const signature = url.searchParams.get('signature') ?? '';

    const forged = (change: (target: URL) => void) => {
      const target = new URL(url);
      change(target);
      return `${target.pathname}${target.search}`;
    };
    const attempts = [
      forged((target) => target.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`)),
      forged((target) => target.searchParams.delete('signature')),
      forged((target) => target.searchParams.set('expires', String(Number(target.searchParams.get('expires')) + 3600))),
      forged((target) => (target.pathname = `/api/storage/${other.key}`)),
    ];
    for (const attempt of attempts) {
      const response = await put(attempt, PNG);
      expect(response.statusCode, attempt).toBe(403);
      expect(response.json()).toEqual({ error: 'This link is not valid.' });
    }

    // A PUT address is not a GET address, and a GET address cannot be re-typed or renamed.
    expect((await put(presigned_url, PNG)).statusCode).toBe(204);
    const read = await context.app.inject({ method: 'GET', url: presigned_url });
    expect(read.statusCode).toBe(403);
    const { key } = other;
    expect((await put(other.presigned_url, PNG)).statusCode).toBe(204);
    const { expiring_url } = (await expiringUrl(owner, key)).json<{ expiring_url: string }>();
    const getUrl = new URL(expiring_url, 'http://localhost');
    for (const [name, value] of [
      ['type', 'text/html'],
      ['filename', 'b.html'],
    ]) {
      const target = new URL(getUrl);
      target.searchParams.set(name, value);
      const response = await context.app.inject({ method: 'GET', url: `${target.pathname}${target.search}` });
      expect(response.statusCode, name).toBe(403);
    }
  });
});

describe('who may read a file', () => {
  it("refuses another user's key exactly like an unknown one", async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const key = await uploaded(owner, 'private.png', PNG);
    const refused = await expiringUrl(stranger, key);
    const unknown = await expiringUrl(stranger, '0123456789abcdef0123456789abcdef.png');
    expect(refused.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(refused.json()).toEqual(unknown.json());
  });

  it('lets staff read a file attached to a request, and the request owner read staff files on it', async () => {
    const owner = await signedInUser();
    const concierge = await signedInUser('concierge');
    const admin = await signedInUser('admin');
    const stranger = await signedInUser();
    const requestId = await requestOf(owner);

    const attachment = await uploaded(owner, 'receipt.pdf', PDF, requestId);
    expect((await expiringUrl(concierge, attachment)).statusCode).toBe(200);
    expect((await expiringUrl(admin, attachment)).statusCode).toBe(200);
    expect((await expiringUrl(stranger, attachment)).statusCode).toBe(404);

    const reply = await uploaded(concierge, 'quote.png', PNG, requestId);
    expect((await expiringUrl(owner, reply)).statusCode).toBe(200);
    expect((await expiringUrl(stranger, reply)).statusCode).toBe(404);
  });

  it('does not let staff read a file that belongs to no request', async () => {
    const owner = await signedInUser();
    const concierge = await signedInUser('concierge');
    const key = await uploaded(owner, 'id-card.png', PNG);
    expect((await expiringUrl(concierge, key)).statusCode).toBe(404);
  });

  it("refuses to presign for someone else's request or a missing one", async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const requestId = await requestOf(owner);
    expect((await presign(stranger, 'a.png', requestId)).statusCode).toBe(404);
    expect((await presign(owner, 'a.png', requestId + 1000)).statusCode).toBe(404);
    expect((await presign(owner, 'a.png', requestId)).statusCode).toBe(200);
  });
});
