import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, idParams } from '../../src/contract/common.ts';
import {
  offeringCategoriesResponse,
  offeringResponse,
  offeringsQuery,
  offeringsResponse,
} from '../../src/contract/offerings.ts';
import type { Database } from '../db/client.ts';
import { type OfferingsCache, findOffering, listOfferingCategories, searchVisibleOfferings } from '../domain/catalogue/offerings.ts';
import { searchQuery } from '../../src/contract/search.ts';
import { userOf } from '../plugins/authenticate.ts';

/** The same answer for an unknown id and another company's benefit: its existence is not revealed. */
const OFFERING_NOT_FOUND = 'Offering not found';

/** SPEC §7 Offerings, under /api/v1. */
const offeringsRoutes: FastifyPluginAsyncZod<{ db: Database; catalogue: OfferingsCache }> = async (app, { db, catalogue }) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/offerings',
    {
      schema: { querystring: offeringsQuery, response: { 200: offeringsResponse, 422: errorBody } },
    },
    async (request) => {
      const { types, prefer_featured: preferFeatured, limit } = request.query;
      const offerings = await catalogue.list(userOf(request).grantedCompanyIds, { types, preferFeatured, limit });
      return { success: true, offerings };
    },
  );

  app.get(
    '/offerings/search',
    { schema: { querystring: searchQuery, response: { 200: offeringsResponse, 422: errorBody } } },
    async (request) => ({
      success: true,
      offerings: await searchVisibleOfferings(db, userOf(request).grantedCompanyIds, request.query.q),
    }),
  );

  app.get(
    '/offerings/:id',
    {
      schema: { params: idParams, response: { 200: offeringResponse, 404: errorBody, 422: errorBody } },
    },
    async (request, reply) => {
      const offering = await findOffering(db, userOf(request).grantedCompanyIds, request.params.id);
      if (!offering) return reply.code(404).send({ error: OFFERING_NOT_FOUND });
      return { success: true, offering };
    },
  );

  app.get(
    '/offering_categories',
    { schema: { response: { 200: offeringCategoriesResponse } } },
    async () => ({ success: true, offering_categories: await listOfferingCategories(db) }),
  );
};

export default offeringsRoutes;
