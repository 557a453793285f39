import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { errorBody } from '../../src/contract/common.ts';
import type { FileStorage } from '../adapters/storage/storage.ts';
import type { Database } from '../db/client.ts';
import { findCompanyLogo } from '../domain/companies.ts';

const logoParams = z.object({ key: z.string().check(z.minLength(1), z.maxLength(200)) });

/**
 * GET /api/v1/company_logos/{key}: the address a logo uploaded in the admin area is shown at (companyLogoPath); the
 * browser is sent on to the stored file. No session: an <img> sends none, and a company's logo is no secret.
 * A key that is no company's logo is not found, whatever else it may be.
 */
export const companyLogosRoutes: FastifyPluginAsyncZod<{ db: Database; storage: FileStorage }> = async (app, { db, storage }) => {
  app.get('/:key', { schema: { params: logoParams, response: { 404: errorBody } } }, async (request, reply) => {
    const logo = await findCompanyLogo(db, storage, request.params.key);
    if (!logo) return reply.code(404).send({ error: 'Logo not found' });
    return reply.redirect(await storage.presignGet(logo.key, logo.filename, logo.contentType), 302);
  });
};
