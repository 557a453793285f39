import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileStorage, SIGNED_URL_TTL_SECONDS, type StoredObject } from '../../domain/ports/fileStorage.ts';

/** Where this server answers its own signed addresses (registered by diskStorageRoutes). */
export const DISK_STORAGE_PATH = '/api/storage';

/** What a signed address carries; the signature covers every other field. */
export interface SignedRequest {
  method: 'PUT' | 'GET';
  key: string;
  /** Unix time in seconds after which the address is refused. */
  expires: number;
  signature: string;
  /** GET only: how the file is named and typed when served. */
  filename?: string;
  contentType?: string;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

export interface DiskStorage extends FileStorage {
  readonly kind: 'disk';
  verify(request: SignedRequest): SignatureCheck;
}

export interface DiskStorageOptions {
  /** The directory holding one file per key. */
  root: string;
  secret: string;
  now?: () => number;
}

/** Keys become file names: no separators, no leading dot, nothing a shell or a path could misread. */
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/**
 * The signing secret kept in `${dataDir}/signing-secret`, created on first use, so that signed addresses
 * survive a restart without any configuration.
 */
export function loadSigningSecret(dataDir: string): string {
  const path = join(dataDir, 'signing-secret');
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // Another process created it between our read and write: theirs is the one to use.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(path, 'utf8').trim();
}

export function createDiskStorage({ root, secret, now = () => Date.now() }: DiskStorageOptions): DiskStorage {
  const incoming = join(root, '.incoming');
  mkdirSync(incoming, { recursive: true });

  function pathOf(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
    return join(root, key);
  }

  function sign({ method, key, expires, filename = '', contentType = '' }: Omit<SignedRequest, 'signature'>) {
    // A JSON array keeps fields apart whatever characters a file name holds.
    const canonical = JSON.stringify([method, key, expires, filename, contentType]);
    return createHmac('sha256', secret).update(canonical).digest('base64url');
  }

  function signedUrl(request: Omit<SignedRequest, 'signature' | 'expires'>): string {
    const expires = Math.floor(now() / 1000) + SIGNED_URL_TTL_SECONDS;
    const query = new URLSearchParams({ expires: String(expires) });
    if (request.filename !== undefined) query.set('filename', request.filename);
    if (request.contentType !== undefined) query.set('type', request.contentType);
    query.set('signature', sign({ ...request, expires }));
    return `${DISK_STORAGE_PATH}/${encodeURIComponent(request.key)}?${query.toString()}`;
  }

  return {
    kind: 'disk',

    async presignPut(key) {
      pathOf(key);
      return signedUrl({ method: 'PUT', key });
    },

    async presignGet(key, filename, contentType) {
      pathOf(key);
      return signedUrl({ method: 'GET', key, filename, contentType });
    },

    verify(request) {
      const expected = Buffer.from(sign(request));
      const given = Buffer.from(request.signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
      return request.expires * 1000 < now() ? 'expired' : 'valid';
    },

    async write(key, chunks) {
      const target = pathOf(key);
      // Written aside and renamed into place, so that a reader never sees half a file.
      const partial = join(incoming, randomBytes(12).toString('hex'));
      try {
        await pipeline(chunks, createWriteStream(partial, { mode: 0o600 }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },

    async read(key, range): Promise<StoredObject | null> {
      const path = pathOf(key);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      if (size === 0) return { body: Readable.from([]), size };
      const body = range
        ? createReadStream(path, { start: range.start, end: Math.min(range.end, size - 1) })
        : createReadStream(path);
      return { body, size };
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
