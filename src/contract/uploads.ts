import * as z from 'zod/mini';
import { dbIdText } from './common.ts';

/** SPEC §5/§9: one file, at most 25 MiB. */
export const MAX_UPLOAD_BYTES = 26_214_400;

/** SPEC §5: images or PDFs only. The server decides by the bytes; the browser by the reported type. */
export const SAFE_UPLOAD_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/avif',
  'application/pdf',
] as const;
export type SafeUploadType = (typeof SAFE_UPLOAD_TYPES)[number];

export function isSafeUploadType(type: string): type is SafeUploadType {
  return (SAFE_UPLOAD_TYPES as readonly string[]).includes(type);
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;
const SIZE_BASE = 1024;

/**
 * SPEC §9: a 1024-based size with at most one decimal: '0 Bytes', '500 Bytes', '1.5 MB', '25 MB'. The size limit's
 * message (SPEC §5) and the file uploader widget both write sizes so.
 */
export function fileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  let unitIndex = Math.min(Math.floor(Math.log(bytes) / Math.log(SIZE_BASE)), SIZE_UNITS.length - 1);
  let rounded = Math.round((bytes / SIZE_BASE ** unitIndex) * 10) / 10;
  // 1048575 bytes is 1023.999 KB, which would round to '1024 KB'; show it as '1 MB'.
  if (rounded >= SIZE_BASE && unitIndex < SIZE_UNITS.length - 1) {
    unitIndex += 1;
    rounded = Math.round((bytes / SIZE_BASE ** unitIndex) * 10) / 10;
  }
  return `${rounded} ${SIZE_UNITS[unitIndex]}`;
}

/** The answer of the storage PUT when the bytes are neither an image nor a PDF (HTTP 415). */
export const UNSUPPORTED_UPLOAD_ERROR = 'Only images or PDFs are allowed.';

export const presignedUrlRequest = z.object({
  upload: z.object({ filename: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)) }),
  /** The request (SPEC §3 Request.id) whose thread the file is for; staff may then read it. */
  request_id: z.optional(dbIdText),
});
export type PresignedUrlRequest = z.infer<typeof presignedUrlRequest>;

/**
 * `presigned_url` is absolute when the bytes go to an S3-compatible store, and root-relative
 * ("/api/storage/<key>?expires=..&signature=..") when this server stores them on disk; the client resolves it
 * against the API origin (src/services/uploads.ts).
 */
export const presignedUrlResponse = z.object({
  presigned_url: z.string().check(z.minLength(1)),
  key: z.string().check(z.minLength(1)),
});
export type PresignedUrlResponse = z.infer<typeof presignedUrlResponse>;

export const uploadKeyQuery = z.object({ key: z.string().check(z.minLength(1), z.maxLength(200)) });

/** Absolute or root-relative, like `presigned_url`; valid for a few minutes. */
export const expiringUrlResponse = z.object({ expiring_url: z.string().check(z.minLength(1)) });
export type ExpiringUrlResponse = z.infer<typeof expiringUrlResponse>;
