import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { users, requests } from '../../server/db/schema.ts';
import { createSession } from '../../server/domain/accounts/sessions.ts';
import { MAX_UPLOAD_BYTES } from '../../src/contract/uploads.ts';
import { createStorage } from '../../server/adapters/storage/createStorage.ts';
import { suiteContext, testStorage } from './harness.ts';

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

const onS3 = testStorage === 's3';
/** How the storage answers a PUT it keeps: this server's 204, the bucket's 200. */
const KEPT = onS3 ? 200 : 204;

/** What a signed address answers, whether this server's own (root-relative) or the bucket's. */
interface SignedAnswer {
  statusCode: number;
  rawPayload: Buffer;
  headers: Record<string, unknown>;
  body: string;
  json(): unknown;
}

/** Sends to a signed address as the browser does: to the bucket from the app's origin, without credentials. */
async function sendTo(url: string, { method = 'GET', payload, contentType }: { method?: 'GET' | 'PUT'; payload?: Buffer | Readable; contentType?: string } = {}): Promise<SignedAnswer> {
  const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
  if (url.startsWith('/')) return context.app.inject({ method, url, payload, headers });
  if (payload instanceof Readable) throw new Error('Streamed bodies are sent to this server only');
  const answer = await fetch(url, { method, body: payload && new Uint8Array(payload), headers: { ...headers, origin: context.config.APP_URL } });
  const rawPayload = Buffer.from(await answer.arrayBuffer());
  return {
    statusCode: answer.status,
    rawPayload,
    headers: Object.fromEntries(answer.headers),
    body: rawPayload.toString(),
    json: () => JSON.parse(rawPayload.toString()) as unknown,
  };
}

/** The store as the app builds it from the same configuration. */
const storage = () => createStorage(context.config);

function put(url: string, payload: Buffer | Readable, contentType = 'image/png') {
  return sendTo(url, { method: 'PUT', payload, contentType });
}

function expiringUrl(user: User, key: string) {
  return context.app.inject({ method: 'GET', url: '/api/v1/uploads/expiring_url', query: { key }, headers: user.headers });
}

async function uploaded(user: User, filename: string, bytes: Buffer, requestId?: number) {
  const { presigned_url, key } = await presigned(user, filename, requestId);
  expect((await put(presigned_url, bytes)).statusCode).toBe(KEPT);
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
    if (onS3) expect(presigned_url).toMatch(new RegExp(`^${context.config.S3_ENDPOINT}/${context.config.S3_BUCKET}/${key}\\?X-Amz-`));
    else expect(presigned_url).toMatch(new RegExp(`^/api/storage/${key}\\?expires=\\d+&signature=`));

    // Nothing stored yet: not readable.
    expect((await expiringUrl(owner, key)).statusCode).toBe(404);

    // The declared type is not trusted: the bytes say PNG.
    const stored = await put(presigned_url, PNG, 'application/octet-stream');
    expect(stored.statusCode).toBe(KEPT);

    const answer = await expiringUrl(owner, key);
    expect(answer.statusCode).toBe(200);
    const { expiring_url } = answer.json<{ expiring_url: string }>();
    const file = await sendTo(expiring_url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers['content-type']).toBe('image/png');
    // The bucket sets no such header; its answer's type is the one this server checked and signed.
    if (!onS3) expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toBe(
      `inline; filename="Holiday photo.PNG"; filename*=UTF-8''Holiday%20photo.PNG`,
    );
  });

  it('serves a PDF as a download, with a file name that cannot break the header', async () => {
    const owner = await signedInUser();
    const key = await uploaded(owner, 'Ré"sumé\r\n;final.pdf', PDF);
    const { expiring_url } = (await expiringUrl(owner, key)).json<{ expiring_url: string }>();
    const file = await sendTo(expiring_url);
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
    const response = await sendTo(presigned_url, { method: 'PUT', payload: PDF });
    expect(response.statusCode).toBe(KEPT);
  });

  it('answers a file gone from the storage with 404, not 500', async () => {
    const owner = await signedInUser();
    const key = await uploaded(owner, 'gone.png', PNG);
    const { expiring_url } = (await expiringUrl(owner, key)).json<{ expiring_url: string }>();
    await (await storage()).delete(key);
    const file = await sendTo(expiring_url);
    expect(file.statusCode).toBe(404);
    expect(file.body).toContain(onS3 ? '<Code>NoSuchKey</Code>' : 'File not found');
  });

  // A bucket overwrites: a second PUT within the address's 15 minutes replaces the bytes (see README "Files on S3").
  it.skipIf(onS3)('refuses a second upload to the same key', async () => {
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

// This server refuses bytes as they arrive; a bucket keeps anything, and the first read refuses (below).
describe.skipIf(onS3)('what the storage refuses', () => {
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

describe.skipIf(onS3)('signed addresses', () => {
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

describe.runIf(onS3)('what the first read of a bucket object refuses', () => {
  async function refusedOnFirstRead(filename: string, bytes: Buffer) {
    const owner = await signedInUser();
    const { presigned_url, key } = await presigned(owner, filename);
    expect((await put(presigned_url, bytes)).statusCode).toBe(KEPT);
    const refusal = await expiringUrl(owner, key);
    expect(await (await storage()).read(key)).toBeNull();
    expect((await expiringUrl(owner, key)).statusCode).toBe(404);
    return refusal;
  }

  it('deletes a text file named .png and answers 415', async () => {
    const refusal = await refusedOnFirstRead('notes.png', Buffer.from('just some text, honest\n'));
    expect(refusal.statusCode).toBe(415);
    expect(refusal.json()).toEqual({ error: 'Only images or PDFs are allowed.' });
  });

  it('deletes a file over the limit and answers 413', async () => {
    const refusal = await refusedOnFirstRead('huge.png', Buffer.concat([PNG, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - PNG.length)]));
    expect(refusal.statusCode).toBe(413);
    expect(refusal.json()).toEqual({ error: `The file is larger than the ${MAX_UPLOAD_BYTES}-byte limit.` });
  });
});

describe.runIf(onS3)("the bucket's signed addresses", () => {
  /** Signed as if 16 minutes ago: the bucket, not this process, tells the time of the request. */
  async function signedLate<T>(sign: () => Promise<T>): Promise<T> {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 16 * 60 * 1000);
    try {
      return await sign();
    } finally {
      vi.useRealTimers();
    }
  }

  it('refuse an expired PUT and GET', async () => {
    const owner = await signedInUser();
    const late = await signedLate(() => presigned(owner, 'late.png'));
    const latePut = await put(late.presigned_url, PNG);
    expect(latePut.statusCode).toBe(403);
    expect(latePut.body).toContain('Request has expired');

    const key = await uploaded(owner, 'on-time.png', PNG);
    const { expiring_url } = await signedLate(async () => (await expiringUrl(owner, key)).json<{ expiring_url: string }>());
    const lateGet = await sendTo(expiring_url);
    expect(lateGet.statusCode).toBe(403);
    expect(lateGet.body).toContain('Request has expired');
  });

  it('refuse a tampered signature, key, expiry, type or file name', async () => {
    const owner = await signedInUser();
    const { presigned_url } = await presigned(owner, 'a.png');
    const other = await presigned(owner, 'b.png');
    const tampered = (url: string, change: (target: URL) => void) => {
      const target = new URL(url);
      change(target);
      return target.toString();
    };
    const signature = new URL(presigned_url).searchParams.get('X-Amz-Signature') ?? '';
    const attempts = [
      tampered(presigned_url, (target) => target.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`)),
      tampered(presigned_url, (target) => target.searchParams.set('X-Amz-Expires', '604800')),
      tampered(presigned_url, (target) => (target.pathname = target.pathname.replace(/[^/]+$/, other.key))),
    ];
    for (const attempt of attempts) {
      const response = await put(attempt, PNG);
      expect(response.statusCode, attempt).toBe(403);
      expect(response.body).toContain('<Code>SignatureDoesNotMatch</Code>');
    }
    expect(await (await storage()).read(other.key)).toBeNull();

    // A PUT address is not a GET address, and a GET address cannot be re-typed or renamed.
    expect((await put(presigned_url, PNG)).statusCode).toBe(KEPT);
    expect((await sendTo(presigned_url)).statusCode).toBe(403);
    expect((await put(other.presigned_url, PNG)).statusCode).toBe(KEPT);
    const { expiring_url } = (await expiringUrl(owner, other.key)).json<{ expiring_url: string }>();
    for (const [name, value] of [
      ['response-content-type', 'text/html'],
      ['response-content-disposition', 'inline; filename="b.html"'],
    ]) {
      const response = await sendTo(tampered(expiring_url, (target) => target.searchParams.set(name, value)));
      expect(response.statusCode, name).toBe(403);
    }
    expect((await sendTo(expiring_url)).statusCode).toBe(200);
  });

  it("let the app's origin PUT across origins, and no other origin", async () => {
    const owner = await signedInUser();
    const { presigned_url } = await presigned(owner, 'a.png');
    const preflight = (origin: string) =>
      fetch(presigned_url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight(context.config.APP_URL);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('PUT');
    expect((await preflight('https://elsewhere.example')).status).toBe(403);
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
