import ky, { NetworkError } from 'ky';
import { type PresignedUrlResponse, expiringUrlResponse, presignedUrlResponse } from '../contract/uploads.ts';
import { readConfig } from './config.ts';
import { api } from './http.ts';

/**
 * The server answers with absolute addresses (S3) or root-relative ones (its own disk store): the latter belong to
 * the API's origin, which need not be the page's.
 */
function resolveFileAddress(address: string): string {
  return new URL(address, readConfig().apiBaseUrl).toString();
}

/** POST /api/v1/uploads/presigned_url: a fresh random key and the address to PUT the file's bytes to. */
export async function requestPresignedUrl(filename: string, requestId?: number): Promise<PresignedUrlResponse> {
  const client = await api();
  const json = { upload: { filename }, request_id: requestId };
  const answer = await client.post('uploads/presigned_url', { json }).json(presignedUrlResponse);
  return { key: answer.key, presigned_url: resolveFileAddress(answer.presigned_url) };
}

/**
 * GET /api/v1/uploads/expiring_url: an address that serves the file for a few minutes. It is also the lookup of the
 * Attachment route (/attachments/{fileKey}): that route calls getExpiringUrl(decodeURIComponent(fileKey)) and
 * replaces the page with the answer (window.location.replace); there is no separate file_url call.
 */
export async function getExpiringUrl(key: string): Promise<string> {
  const client = await api();
  const answer = await client.get('uploads/expiring_url', { searchParams: { key } }).json(expiringUrlResponse);
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
 * What the transfer's answer means, decided as for any call (http.ts): ky is handed the answer XMLHttpRequest
 * received, so one outside 200-299 fails with ky's HTTPError, the body read into its `data` as for every call.
 */
async function judgeAnswer(transfer: XMLHttpRequest, url: string, method: string): Promise<void> {
  const answer = new Response(transfer.responseText || null, {
    status: transfer.status,
    statusText: transfer.statusText,
    headers: { 'content-type': transfer.getResponseHeader('content-type') ?? 'text/plain' },
  });
  await ky(url, { method, retry: 0, timeout: false, fetch: () => Promise.resolve(answer) });
}

/**
 * Sends the file's bytes straight to `url` (SPEC §7): XMLHttpRequest because fetch reports no upload progress; no
 * credentials; the file's own type, or application/octet-stream. Resolves on 200-299; otherwise fails as an API call
 * does (http.ts): ky's HTTPError for an answer outside 200-299, ky's NetworkError for none, an AbortError when aborted.
 */
export function uploadFile({ url, file, method = 'PUT', onProgress, signal }: UploadFileOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => new DOMException('The upload was aborted', 'AbortError');
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.withCredentials = false;
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.round((event.loaded / event.total) * 100));
    });
    request.addEventListener('load', () => void judgeAnswer(request, url, method).then(resolve, reject));
    request.addEventListener('error', () => reject(new NetworkError(new Request(url, { method }))));
    request.addEventListener('abort', () => reject(aborted()));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
