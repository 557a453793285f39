import type { Readable } from 'node:stream';
import type { SafeUploadType } from '../../../src/contract/uploads.ts';

/** How long a presigned PUT or GET address stays valid. */
export const SIGNED_URL_TTL_SECONDS = 15 * 60;

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  body: Readable;
  /** The size of the whole object, whatever range was read. */
  size: number;
}

/**
 * Where uploaded files live. Browsers never send file bytes through the API: they PUT them to `presignPut`'s
 * address and read them from `presignGet`'s. Addresses are absolute, or root-relative when this server serves them.
 */
export interface FileStorage {
  readonly kind: 'disk' | 's3';
  presignPut(key: string, contentType?: string): Promise<string>;
  /** Served with the given (already verified) type and a Content-Disposition naming `filename`. */
  presignGet(key: string, filename: string, contentType: SafeUploadType): Promise<string>;
  write(key: string, chunks: AsyncIterable<Uint8Array>): Promise<void>;
  /** The object, or null when nothing is stored under `key`. */
  read(key: string, range?: ByteRange): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
}

/**
 * Images open in the browser, PDFs download (a PDF viewer runs scripts). The name keeps only characters that are
 * safe in a quoted header value; the exact name travels in the RFC 6266 `filename*` parameter.
 */
export function contentDisposition(filename: string, contentType: SafeUploadType): string {
  const disposition = contentType.startsWith('image/') ? 'inline' : 'attachment';
  const baseName = filename.split(/[\\/]/).pop() ?? '';
  const asciiName = baseName.replace(/[^\x20-\x7e]|["\\%;]/g, '_').trim() || 'file';
  const encodedName = encodeURIComponent(baseName.replace(/\p{Cc}/gu, '')).replace(/['()*]/g, (character) =>
    `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${asciiName}"; filename*=UTF-8''${encodedName || 'file'}`;
}
