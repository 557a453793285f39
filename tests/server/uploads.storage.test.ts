import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../server/adapters/storage/createStorage.ts';
import { checkBucketAnswers, createS3Storage } from '../../server/adapters/storage/s3.ts';
import { loadConfig } from '../../server/config.ts';
import { requests, users } from '../../server/db/schema.ts';
import { attachUploadsToRequest, detectUploadType, findUpload } from '../../server/domain/uploads/uploads.ts';
import { createSession } from '../../server/domain/accounts/sessions.ts';
import { startLocalS3 } from '../localS3.ts';
import { type TestContext, createTestContext } from './harness.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
/** An ISO media `ftyp` box: size, "ftyp", major brand, minor version, compatible brands. */
const ftyp = (major: string, ...compatible: string[]) =>
  bytes([0, 0, 0, 16 + 4 * compatible.length], 'ftyp', major, [0, 0, 0, 0], compatible.join(''));

describe('detectUploadType', () => {
  it.each([
    ['PNG', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest'), 'image/png'],
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'), 'image/jpeg'],
    ['GIF', bytes('GIF89a', [1, 0, 1, 0]), 'image/gif'],
    ['WebP', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    ['PDF', bytes('%PDF-1.4\n'), 'application/pdf'],
    ['HEIC', ftyp('heic', 'mif1', 'heic'), 'image/heic'],
    ['AVIF', ftyp('avif', 'mif1', 'miaf'), 'image/avif'],
    ['AVIF behind a generic major brand', ftyp('mif1', 'avif', 'miaf'), 'image/avif'],
    ['HEIF', ftyp('mif1', 'mif1', 'miaf'), 'image/heif'],
  ])('recognises %s', (_name, head, type) => {
    expect(detectUploadType(head)).toBe(type);
  });

  it.each([
    ['plain text', bytes('hello, world')],
    ['HTML', bytes('<!doctype html><script>alert(1)</script>')],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ['an MP4 video', ftyp('isom', 'isom', 'mp41')],
    ['a ZIP archive', bytes('PK', [3, 4])],
    ['nothing', bytes()],
  ])('refuses %s', (_name, head) => {
    expect(detectUploadType(head)).toBeNull();
  });
});

describe('the S3 adapter', () => {
  const storage = createS3Storage(
    loadConfig({
      STORAGE: 's3',
      S3_BUCKET: 'concierge-files',
      S3_REGION: 'eu-west-1',
      S3_ENDPOINT: 'https://objects.example.com',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'example-secret',
    }),
  );

  it('presigns a PUT straight to the bucket, path-style on a custom endpoint', async () => {
    const url = new URL(await storage.presignPut('0123456789abcdef0123456789abcdef.png'));
    expect(`${url.origin}${url.pathname}`).toBe(
      'https://objects.example.com/concierge-files/0123456789abcdef0123456789abcdef.png',
    );
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // A checksum signed into the address would be that of no bytes, and the bucket would refuse the browser's.
    expect([...url.searchParams.keys()].filter((name) => name.toLowerCase().includes('checksum'))).toEqual([]);
  });

  it('presigns a GET that makes the bucket answer with the checked type and a safe disposition', async () => {
    const url = new URL(await storage.presignGet('0123456789abcdef0123456789abcdef.pdf', 'quote "final".pdf', 'application/pdf'));
    expect(url.searchParams.get('response-content-type')).toBe('application/pdf');
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="quote _final_.pdf"; filename*=UTF-8''quote%20%22final%22.pdf`,
    );
  });
});

describe('bytes that arrive without passing through this server (as with S3)', () => {
  let context: TestContext;
  let headers: { authorization: string };
  let ownerId: number;

  beforeAll(async () => {
    context = await createTestContext();
    const [owner] = await context.db
      .insert(users)
      .values({ email: 'direct@example.com', passwordHash: 'unused', firstName: 'Direct', lastName: 'Upload' })
      .returning();
    ownerId = owner.id;
    headers = { authorization: (await createSession(context.db, owner.id)).token };
  });
  afterAll(async () => {
    await context.close();
  });

  async function presignAndDrop(filename: string, content: Buffer) {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/presigned_url',
      headers,
      payload: { upload: { filename } },
    });
    const { key } = response.json<{ key: string }>();
    await (await createStorage(context.config)).write(key, Readable.from([content]));
    return key;
  }

  const isKept = async (key: string) => (await (await createStorage(context.config)).read(key)) !== null;

  const expiringUrl = (key: string) =>
    context.app.inject({ method: 'GET', url: '/api/v1/uploads/expiring_url', query: { key }, headers });

  it('are checked on the first read and recorded as stored', async () => {
    const key = await presignAndDrop('scan.pdf', bytes('%PDF-1.7\n%%EOF\n'));
    expect((await expiringUrl(key)).statusCode).toBe(200);
    expect(await findUpload(context.db, key)).toMatchObject({ status: 'stored', contentType: 'application/pdf', size: 15 });
  });

  it('are deleted when they are not an image or a PDF', async () => {
    const key = await presignAndDrop('page.png', bytes('<html>not a picture</html>'));
    const response = await expiringUrl(key);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: 'Only images or PDFs are allowed.' });
    expect(await isKept(key)).toBe(false);
    expect((await expiringUrl(key)).statusCode).toBe(404);
  });

  it('can then be attached to a request of their owner, once', async () => {
    const key = await presignAndDrop('photo.png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const pending = await context.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/presigned_url',
      headers,
      payload: { upload: { filename: 'never-sent.png' } },
    });
    const [request] = await context.db.insert(requests).values({ userId: ownerId, name: 'Frame a photo' }).returning();
    const [otherRequest] = await context.db.insert(requests).values({ userId: ownerId, name: 'Another' }).returning();

    // Not stored yet: the read above has not happened for `key`, and `never-sent` has no bytes at all.
    const neverSent = pending.json<{ key: string }>().key;
    expect(await attachUploadsToRequest(context.db, { ownerUserId: ownerId, requestId: request.id, keys: [neverSent] })).toBe(false);

    expect((await expiringUrl(key)).statusCode).toBe(200);
    expect(await attachUploadsToRequest(context.db, { ownerUserId: ownerId + 1000, requestId: request.id, keys: [key] })).toBe(false);
    expect(await attachUploadsToRequest(context.db, { ownerUserId: ownerId, requestId: request.id, keys: [key] })).toBe(true);
    expect((await findUpload(context.db, key))?.requestId).toBe(request.id);
    expect(await attachUploadsToRequest(context.db, { ownerUserId: ownerId, requestId: otherRequest.id, keys: [key] })).toBe(false);
  });
});

describe('at start, the S3 bucket', () => {
  it('must answer HeadBucket, or the server names the bucket and the endpoint', async () => {
    const s3 = await startLocalS3('http://localhost:3000');
    const config = (env: Record<string, string>) => loadConfig({ ...s3.env, ...env });
    try {
      await expect(checkBucketAnswers(config({}))).resolves.toBeUndefined();
      await expect(checkBucketAnswers(config({ S3_BUCKET: 'no-such-bucket' }))).rejects.toThrow(
        `The S3 bucket "no-such-bucket" does not answer at ${s3.endpoint}: NotFound (HTTP 404).`,
      );
      await expect(checkBucketAnswers(config({ S3_SECRET_ACCESS_KEY: 'wrong' }))).rejects.toThrow('(HTTP 403)');
    } finally {
      await s3.close();
    }
    await expect(checkBucketAnswers(loadConfig(s3.env), 2_000)).rejects.toThrow(
      `The S3 bucket "${s3.env.S3_BUCKET}" does not answer at ${s3.endpoint}: connect ECONNREFUSED`,
    );
  });
});
