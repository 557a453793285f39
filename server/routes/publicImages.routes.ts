import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { errorBody } from '../../src/contract/common.ts';
import type { FileStorage } from '../domain/ports/fileStorage.ts';
import type { Database, Executor } from '../db/client.ts';
import type { StoredUpload } from '../domain/uploads/uploads.ts';

const imageParams = z.object({ key: z.string().check(z.minLength(1), z.maxLength(200)) });

/**
 * GET {prefix}/{key}: the address an image uploaded in the admin area is shown at (a company's logo, a category's
 * image); the browser is sent on to the stored file. No session: an <img> sends none, and these images are no
 * secret. A key that `find` does not show is not found, whatever else it may be.
 */
export const publicImagesRoutes: FastifyPluginAsyncZod<{
  db: Database;
  storage: FileStorage;
  find: (db: Executor, storage: FileStorage, key: string) => Promise<StoredUpload | null>;
  notFoundError: string;
}> = async (app, { db, storage, find, notFoundError }) => {
  const redirect = { status: 302, description: 'Sent on to the stored image (a short-lived address).' };
  app.get('/:key', { config: { otherSuccess: redirect }, schema: { params: imageParams, response: { 404: errorBody } } }, async (request, reply) => {
    const image = await find(db, storage, request.params.key);
    if (!image) return reply.code(404).send({ error: notFoundError });
    return reply.redirect(await storage.presignGet(image.key, image.filename, image.contentType), 302);
  });
};
