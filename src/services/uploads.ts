import { type PresignedUrlResponse, expiringUrlResponse, presignedUrlResponse } from '../contract/uploads.ts';
import { readConfig } from './config.ts';
import { HTTPError, api } from './http.ts';

/** A file transfer (or the presign call before it) answered outside 200-299 (SPEC §8 "upload-error event"). */
export class UploadHttpError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly responseText: string;

  constructor(status: number, statusText: string, responseText: string) {
    super(`Upload failed with HTTP ${status}${statusText ? ` ${statusText}` : ''}`);
    this.name = 'UploadHttpError';
    this.status = status;
    this.statusText = statusText;
    this.responseText = responseText;
  }
}

/** No answer at all: offline, DNS, CORS refusal, connection reset. */
export class UploadNetworkError extends Error {
  constructor() {
    super('The upload could not reach the server');
    this.name = 'UploadNetworkError';
  }
}

export class UploadAbortedError extends Error {
  constructor() {
    super('The upload was aborted');
    this.name = 'UploadAbortedError';
  }
}

/**
 * The server answers with absolute addresses (S3) or root-relative ones (its own disk store): the latter belong to
 * the API's origin, which need not be the page's.
 */
function resolveFileAddress(address: string): string {
  return new URL(address, readConfig().apiBaseUrl).toString();
}

/** The API client's HTTPError as the upload flow reports failures; anything else is passed through unchanged. */
function asUploadError(error: unknown): unknown {
  if (!(error instanceof HTTPError)) return error;
  const { data } = error;
  const responseText = data === undefined ? '' : typeof data === 'string' ? data : JSON.stringify(data);
  return new UploadHttpError(error.response.status, error.response.statusText, responseText);
}

/** POST /api/v1/uploads/presigned_url: a fresh random key and the address to PUT the file's bytes to. */
export async function requestPresignedUrl(filename: string, requestId?: number): Promise<PresignedUrlResponse> {
  try {
    const answer = presignedUrlResponse.parse(
      await api()
        .post('uploads/presigned_url', { json: { upload: { filename }, request_id: requestId } })
        .json(),
    );
    return { key: answer.key, presigned_url: resolveFileAddress(answer.presigned_url) };
  } catch (error) {
    throw asUploadError(error);
  }
}

/**
 * GET /api/v1/uploads/expiring_url: an address that serves the file for a few minutes. It is also the lookup of the
 * Attachment route (/attachments/{fileKey}): that route calls getExpiringUrl(decodeURIComponent(fileKey)) and
 * replaces the page with the answer (window.location.replace); there is no separate file_url call.
 */
export async function getExpiringUrl(key: string): Promise<string> {
  const answer = expiringUrlResponse.parse(await api().get('uploads/expiring_url', { searchParams: { key } }).json());
  return resolveFileAddress(answer.expiring_url);
}

export interface UploadFileOptions {
  url: string;
  file: File;
  /** SPEC §9: PUT unless told otherwise. */
  method?: string;
  /** Whole percent of the body sent, 0 to 100. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends the file's bytes straight to `url` (SPEC §7): XMLHttpRequest because fetch reports no upload progress; no
 * credentials; the file's own type, or application/octet-stream. Resolves on 200-299; rejects with an
 * UploadHttpError (status, status text, response text), an UploadNetworkError, or an UploadAbortedError.
 */
export function uploadFile({ url, file, method = 'PUT', onProgress, signal }: UploadFileOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadAbortedError());
      return;
    }
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.withCredentials = false;
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.round((event.loaded / event.total) * 100));
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) resolve();
      else reject(new UploadHttpError(request.status, request.statusText, request.responseText));
    });
    request.addEventListener('error', () => reject(new UploadNetworkError()));
    request.addEventListener('abort', () => reject(new UploadAbortedError()));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
