import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import {
  MAX_UPLOAD_BYTES,
  type SafeUploadType,
  UNSUPPORTED_UPLOAD_ERROR,
  isSafeUploadType,
} from '../../../src/contract/uploads.ts';
import type { FileStorage } from '../ports/fileStorage.ts';
import type { Executor } from '../../db/client.ts';
import { requests, uploads } from '../../db/schema.ts';
import type { AuthenticatedUser } from '../accounts/sessions.ts';
import { UserFacingError } from '../shared/userFacingError.ts';

export type UploadRow = typeof uploads.$inferSelect;

export interface StoredUpload {
  key: string;
  filename: string;
  contentType: SafeUploadType;
  size: number;
}

/** Enough leading bytes to recognise every accepted format, HEIF's brand list included. */
const SNIFF_BYTES = 64;

/** A refused upload: 413 when the file is too large, 415 when it is not an image or PDF. */
export function uploadRejected(reason: 'too_large' | 'unsupported'): UserFacingError {
  return reason === 'too_large'
    ? new UserFacingError(413, `The file is larger than the ${MAX_UPLOAD_BYTES}-byte limit.`)
    : new UserFacingError(415, UNSUPPORTED_UPLOAD_ERROR);
}

function isStaff(user: AuthenticatedUser): boolean {
  return user.role === 'concierge' || user.role === 'admin';
}

const SAFE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'heic', 'heif', 'avif', 'pdf']);

/** 128 random bits; the file name contributes at most a known image/PDF extension, nothing else. */
export function newUploadKey(filename: string): string {
  const extension = filename.match(/\.([A-Za-z0-9]{1,5})$/)?.[1]?.toLowerCase();
  const random = randomBytes(16).toString('hex');
  return extension && SAFE_EXTENSIONS.has(extension) ? `${random}.${extension}` : random;
}

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

/** HEIF and AVIF are ISO media files: an `ftyp` box whose major and compatible brands name the format. */
function isoImageType(head: Uint8Array): SafeUploadType | null {
  if (head.length < 12 || ascii(head, 4, 8) !== 'ftyp') return null;
  const boxSize = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0);
  const brands = [ascii(head, 8, 12)];
  for (let offset = 16; offset + 4 <= Math.min(boxSize, head.length); offset += 4) brands.push(ascii(head, offset, offset + 4));
  for (const brand of brands) {
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'].includes(brand)) return 'image/heic';
  }
  return brands.some((brand) => brand === 'mif1' || brand === 'msf1') ? 'image/heif' : null;
}

/** The type the bytes really have, when it is an accepted one; the name and the declared type are not trusted. */
export function detectUploadType(head: Uint8Array): SafeUploadType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  return isoImageType(head);
}

function requireAcceptedType(head: Uint8Array): SafeUploadType {
  const type = detectUploadType(head);
  if (!type) throw uploadRejected('unsupported');
  return type;
}

/**
 * Passes an upload's bytes through while counting them and checking the first ones: the returned `chunks` fail
 * with uploadRejected's refusal as soon as the file is too large or is not an image or PDF, before it is kept.
 * `inspected()` gives the size and detected type once `chunks` is consumed.
 */
export function inspectUpload(source: AsyncIterable<Uint8Array>) {
  let size = 0;
  let contentType: SafeUploadType | null = null;

  async function* checkedChunks() {
    let head: Uint8Array[] = [];
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > MAX_UPLOAD_BYTES) throw uploadRejected('too_large');
      if (contentType) {
        yield chunk;
        continue;
      }
      head.push(chunk);
      if (size >= SNIFF_BYTES) {
        const buffered = Buffer.concat(head);
        head = [];
        contentType = requireAcceptedType(buffered);
        yield buffered;
      }
    }
    if (!contentType) {
      const buffered = Buffer.concat(head);
      contentType = requireAcceptedType(buffered);
      yield buffered;
    }
  }

  return {
    chunks: checkedChunks(),
    inspected(): { size: number; contentType: SafeUploadType } {
      if (!contentType) throw new Error('inspected() called before the upload was read');
      return { size, contentType };
    },
  };
}

/**
 * Records a new upload of `user` and returns its key, or null when `requestId` is not a request the user may
 * attach files to (their own; staff may attach to any).
 */
export async function createUpload(
  db: Executor,
  user: AuthenticatedUser,
  { filename, requestId }: { filename: string; requestId?: number },
): Promise<string | null> {
  if (requestId !== undefined) {
    const [request] = await db.select({ userId: requests.userId }).from(requests).where(eq(requests.id, requestId));
    if (!request || (request.userId !== user.id && !isStaff(user))) return null;
  }
  const key = newUploadKey(filename);
  await db.insert(uploads).values({ key, ownerUserId: user.id, filename, requestId });
  return key;
}

export async function findUpload(db: Executor, key: string): Promise<UploadRow | null> {
  const [row] = await db.select().from(uploads).where(eq(uploads.key, key));
  return row ?? null;
}

/**
 * The upload when `user` may read it: its owner; and, once it belongs to a request, the request's owner and
 * staff. Null otherwise, exactly as for a key that does not exist.
 */
export async function findReadableUpload(db: Executor, user: AuthenticatedUser, key: string): Promise<UploadRow | null> {
  const [row] = await db
    .select({ upload: uploads, requestOwnerId: requests.userId })
    .from(uploads)
    .leftJoin(requests, eq(requests.id, uploads.requestId))
    .where(eq(uploads.key, key));
  if (!row) return null;
  const { upload, requestOwnerId } = row;
  if (upload.ownerUserId === user.id) return upload;
  if (upload.requestId !== null && (isStaff(user) || requestOwnerId === user.id)) return upload;
  return null;
}

export async function markStored(
  db: Executor,
  key: string,
  { size, contentType }: { size: number; contentType: SafeUploadType },
  now = new Date(),
) {
  await db.update(uploads).set({ status: 'stored', size, contentType, storedAt: now }).where(eq(uploads.key, key));
}

function asStored(row: UploadRow): StoredUpload | null {
  if (row.status !== 'stored' || row.size === null || !row.contentType || !isSafeUploadType(row.contentType)) return null;
  return { key: row.key, filename: row.filename, contentType: row.contentType, size: row.size };
}

/**
 * The stored file of an upload row, or null while nothing has arrived. Bytes PUT straight to an object store
 * were never seen by this server, so the first read checks them as the disk PUT does: a file that fails is
 * deleted and its refusal thrown.
 */
export async function confirmStoredUpload(db: Executor, storage: FileStorage, row: UploadRow): Promise<StoredUpload | null> {
  const known = asStored(row);
  if (known) return known;
  const object = await storage.read(row.key, { start: 0, end: SNIFF_BYTES - 1 });
  if (!object) return null;
  const head: Uint8Array[] = [];
  for await (const chunk of object.body) head.push(chunk);
  const contentType = object.size > MAX_UPLOAD_BYTES ? null : detectUploadType(Buffer.concat(head));
  if (!contentType) {
    await storage.delete(row.key);
    throw uploadRejected(object.size > MAX_UPLOAD_BYTES ? 'too_large' : 'unsupported');
  }
  await markStored(db, row.key, { size: object.size, contentType });
  return { key: row.key, filename: row.filename, contentType, size: object.size };
}

/**
 * The stored image `ownerUserId` uploaded for no request, or null when the key is anything else. Such an image may be
 * shown to everyone: an admin's company logo or catalogue image.
 */
export async function ownImageUpload(db: Executor, storage: FileStorage, ownerUserId: number, key: string): Promise<StoredUpload | null> {
  const row = await findUpload(db, key);
  const stored = row && row.ownerUserId === ownerUserId && row.requestId === null ? await confirmStoredUpload(db, storage, row) : null;
  return stored?.contentType.startsWith('image/') ? stored : null;
}

/**
 * For a message that carries attachment keys: true, and the uploads tied to the request, when every key is a
 * stored upload of `ownerUserId` not yet tied to another request; false, and nothing changed, otherwise.
 */
export async function attachUploadsToRequest(
  db: Executor,
  { ownerUserId, requestId, keys }: { ownerUserId: number; requestId: number; keys: readonly string[] },
): Promise<boolean> {
  if (keys.length === 0) return true;
  const rows = await db
    .select({ key: uploads.key, status: uploads.status, requestId: uploads.requestId })
    .from(uploads)
    .where(and(inArray(uploads.key, [...keys]), eq(uploads.ownerUserId, ownerUserId)));
  const attachable = rows.filter((row) => row.status === 'stored' && (row.requestId === null || row.requestId === requestId));
  if (attachable.length !== new Set(keys).size) return false;
  await db
    .update(uploads)
    .set({ requestId })
    .where(and(inArray(uploads.key, [...keys]), eq(uploads.ownerUserId, ownerUserId)));
  return true;
}
