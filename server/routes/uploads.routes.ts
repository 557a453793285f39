import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../src/contract/common.ts';
import {
  MAX_UPLOAD_BYTES,
  expiringUrlResponse,
  isSafeUploadType,
  presignedUrlRequest,
  presignedUrlResponse,
  uploadKeyQuery,
} from '../../src/contract/uploads.ts';
import type { DiskStorage, SignatureCheck } from '../adapters/storage/disk.ts';
import { type FileStorage, contentDisposition } from '../domain/ports/fileStorage.ts';
import type { Database } from '../db/client.ts';
import {
  confirmStoredUpload,
  createUpload,
  findReadableUpload,
  findUpload,
  inspectUpload,
  markStored,
  uploadRejected,
} from '../domain/uploads/uploads.ts';
import { UserFacingError } from '../domain/shared/userFacingError.ts';
import { userOf } from '../plugins/authenticate.ts';

/** The same answer whether the key is unknown, not yet stored or someone else's: existence is not revealed. */
const FILE_NOT_FOUND = 'File not found';

/** SPEC §7 Uploads, under /api/v1/uploads. */
export const uploadsRoutes: FastifyPluginAsyncZod<{ db: Database; storage: FileStorage }> = async (app, { db, storage }) => {
  app.post(
    '/presigned_url',
    {
      onRequest: app.authenticate,
      schema: { body: presignedUrlRequest, response: { 200: presignedUrlResponse, 404: errorBody } },
    },
    async (request, reply) => {
      const { upload, request_id: requestId } = request.body;
      const key = await createUpload(db, userOf(request), { filename: upload.filename, requestId });
      if (!key) return reply.code(404).send({ error: 'Request not found' });
      return { presigned_url: await storage.presignPut(key), key };
    },
  );

  /** Also the lookup behind the Attachment route (/attachments/{fileKey}): the browser is sent to this address. */
  app.get(
    '/expiring_url',
    {
      onRequest: app.authenticate,
      schema: { querystring: uploadKeyQuery, response: { 200: expiringUrlResponse, 404: errorBody } },
    },
    async (request, reply) => {
      const row = await findReadableUpload(db, userOf(request), request.query.key);
      const stored = row && (await confirmStoredUpload(db, storage, row));
      if (!stored) return reply.code(404).send({ error: FILE_NOT_FOUND });
      return { expiring_url: await storage.presignGet(stored.key, stored.filename, stored.contentType) };
    },
  );
};

const SIGNATURE_ERRORS: Record<Exclude<SignatureCheck, 'valid'>, string> = {
  expired: 'This link has expired.',
  invalid: 'This link is not valid.',
};

const keyParams = z.object({ key: z.string().min(1).max(200) });
/** Everything optional: a missing part makes the signature invalid (403), not the request malformed. */
const signedQuery = z.object({
  expires: z.coerce.number().int().optional(),
  signature: z.string().optional(),
  filename: z.string().optional(),
  type: z.string().optional(),
});

/** The rest of a refused body is not worth reading: answer, then close the connection. */
function refuse(reply: FastifyReply, rejection: UserFacingError) {
  return reply.code(rejection.statusCode).header('connection', 'close').send(rejection.body);
}

/**
 * The disk adapter's signed addresses, under /api/storage. No session: the signature is the permission. The
 * browser PUTs with XMLHttpRequest from the app's own origin, without credentials.
 */
export const diskStorageRoutes: FastifyPluginAsyncZod<{ db: Database; storage: DiskStorage }> = async (app, { db, storage }) => {
  // Any content type is accepted here and left unread: the handler streams the raw request itself (this plugin's
  // scope only; the API keeps its JSON parsers and body limit).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.put('/:key', { schema: { params: keyParams, querystring: signedQuery } }, async (request, reply) => {
    const { key } = request.params;
    const { expires = 0, signature = '' } = request.query;
    const check = storage.verify({ method: 'PUT', key, expires, signature });
    if (check !== 'valid') return reply.code(403).send({ error: SIGNATURE_ERRORS[check] });

    const upload = await findUpload(db, key);
    if (!upload) return reply.code(404).send({ error: FILE_NOT_FOUND });
    if (upload.status === 'stored') return reply.code(409).send({ error: 'This file has already been uploaded.' });
    // Refuse an announced oversize body before reading any of it; the stream check covers chunked bodies.
    if (Number(request.headers['content-length'] ?? 0) > MAX_UPLOAD_BYTES) return refuse(reply, uploadRejected('too_large'));

    // Refusing mid-stream must not destroy the request (that would reset the socket before the answer is sent).
    const inspection = inspectUpload(request.raw.iterator({ destroyOnReturn: false }));
    try {
      await storage.write(key, inspection.chunks);
    } catch (error) {
      if (!(error instanceof UserFacingError)) throw error;
      return refuse(reply, error);
    }
    await markStored(db, key, inspection.inspected());
    return reply.code(204).send();
  });

  app.get('/:key', { schema: { params: keyParams, querystring: signedQuery } }, async (request, reply) => {
    const { key } = request.params;
    const { expires = 0, signature = '', filename = '', type = '' } = request.query;
    const check = storage.verify({ method: 'GET', key, expires, signature, filename, contentType: type });
    // The type was signed by this server, so an unsafe one means a forged address.
    if (check !== 'valid' || !isSafeUploadType(type)) {
      return reply.code(403).send({ error: SIGNATURE_ERRORS[check === 'valid' ? 'invalid' : check] });
    }
    const object = await storage.read(key);
    if (!object) return reply.code(404).send({ error: FILE_NOT_FOUND });
    return reply
      .header('content-type', type)
      .header('content-length', object.size)
      .header('content-disposition', contentDisposition(filename, type))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=300')
      .send(object.body);
  });
};
