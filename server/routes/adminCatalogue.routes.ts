import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminSurveyCategoriesResponse,
  adminSurveyCategoryResponse,
  adminTemplateResponse,
  adminTemplatesResponse,
  createSurveyCategoryRequest,
  createTemplateRequest,
  replaceQuestionsRequest,
  updateSurveyCategoryRequest,
  updateTemplateRequest,
  adminOfferingCategoriesResponse,
  adminOfferingCategoryResponse,
  adminOfferingResponse,
  adminOfferingsResponse,
  createOfferingCategoryRequest,
  createOfferingRequest,
  moveRequest,
  updateOfferingCategoryRequest,
  updateOfferingRequest,
} from '../../src/contract/adminCatalogue.ts';
import { errorBody, idParams } from '../../src/contract/common.ts';
import type { FileStorage } from '../domain/ports/fileStorage.ts';
import type { Database } from '../db/client.ts';
import {
  createOffering,
  createOfferingCategory,
  findAdminOffering,
  listAdminOfferingCategories,
  listAdminOfferings,
  moveOffering,
  moveOfferingCategory,
  setOfferingFlag,
  updateOffering,
  updateOfferingCategory,
} from '../domain/admin/adminOfferings.ts';
import {
  createSurveyCategory,
  createTemplate,
  findAdminTemplate,
  listAdminSurveyCategories,
  listAdminTemplates,
  replaceQuestions,
  updateSurveyCategory,
  updateTemplate,
} from '../domain/admin/adminSurveys.ts';
import type { OfferingsCache } from '../domain/catalogue/offerings.ts';
import { userOf } from '../plugins/authenticate.ts';

const refusals = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };
const writeRefusals = { ...refusals, 409: errorBody };
/** An uploaded image is checked when first used: bytes that are no image are refused then. */
const imageRefusals = { ...writeRefusals, 415: errorBody };

/**
 * The catalogue in the console's admin area, under /api/v1/admin (src/contract/adminCatalogue.ts): offerings,
 * offering categories, survey categories and request templates, for admins only.
 */
export const adminCatalogueRoutes: FastifyPluginAsyncZod<{ db: Database; storage: FileStorage; catalogue: OfferingsCache }> = async (
  app,
  { db, storage, catalogue },
) => {
  // Before the body is read, as in admin.routes.ts: nobody but an admin learns anything here, not even the rules.
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);
  // A write answers once this process's offerings cache has heard of it: the employees' next load shows the change.
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET') await catalogue.settle();
  });

  app.get('/offerings', { schema: { response: { 200: adminOfferingsResponse, ...refusals } } }, async () => ({
    offerings: await listAdminOfferings(db),
  }));

  app.get(
    '/offerings/:id',
    { schema: { params: idParams, response: { 200: adminOfferingResponse, ...refusals } } },
    async (request) => ({ offering: await findAdminOffering(db, request.params.id) }),
  );

  app.post(
    '/offerings',
    { schema: { body: createOfferingRequest, response: { 201: adminOfferingResponse, ...writeRefusals } } },
    async (request, reply) => {
      const offering = await createOffering(db, userOf(request).id, request.body);
      return reply.code(201).send({ offering });
    },
  );

  app.patch(
    '/offerings/:id',
    { schema: { params: idParams, body: updateOfferingRequest, response: { 200: adminOfferingResponse, ...writeRefusals } } },
    async (request) => ({ offering: await updateOffering(db, userOf(request).id, request.params.id, request.body) }),
  );

  app.post(
    '/offerings/:id/move',
    { schema: { params: idParams, body: moveRequest, response: { 200: adminOfferingResponse, ...refusals } } },
    async (request) => ({ offering: await moveOffering(db, userOf(request).id, request.params.id, request.body.position) }),
  );

  for (const [action, flag, value] of [
    ['feature', 'featured', true],
    ['unfeature', 'featured', false],
    ['publish', 'published', true],
    ['unpublish', 'published', false],
  ] as const) {
    app.post(
      `/offerings/:id/${action}`,
      { schema: { params: idParams, response: { 200: adminOfferingResponse, ...refusals } } },
      async (request) => ({ offering: await setOfferingFlag(db, userOf(request).id, request.params.id, flag, value) }),
    );
  }

  app.get('/offering_categories', { schema: { response: { 200: adminOfferingCategoriesResponse, ...refusals } } }, async () => ({
    categories: await listAdminOfferingCategories(db),
  }));

  app.post(
    '/offering_categories',
    { schema: { body: createOfferingCategoryRequest, response: { 201: adminOfferingCategoryResponse, ...imageRefusals } } },
    async (request, reply) => {
      const category = await createOfferingCategory(db, storage, userOf(request).id, request.body);
      return reply.code(201).send({ category });
    },
  );

  app.patch(
    '/offering_categories/:id',
    { schema: { params: idParams, body: updateOfferingCategoryRequest, response: { 200: adminOfferingCategoryResponse, ...imageRefusals } } },
    async (request) => ({ category: await updateOfferingCategory(db, storage, userOf(request).id, request.params.id, request.body) }),
  );

  app.post(
    '/offering_categories/:id/move',
    { schema: { params: idParams, body: moveRequest, response: { 200: adminOfferingCategoryResponse, ...refusals } } },
    async (request) => ({ category: await moveOfferingCategory(db, userOf(request).id, request.params.id, request.body.position) }),
  );

  app.get('/survey_categories', { schema: { response: { 200: adminSurveyCategoriesResponse, ...refusals } } }, async () => ({
    categories: await listAdminSurveyCategories(db),
  }));

  app.post(
    '/survey_categories',
    { schema: { body: createSurveyCategoryRequest, response: { 201: adminSurveyCategoryResponse, ...imageRefusals } } },
    async (request, reply) => {
      const category = await createSurveyCategory(db, storage, userOf(request).id, request.body);
      return reply.code(201).send({ category });
    },
  );

  app.patch(
    '/survey_categories/:id',
    { schema: { params: idParams, body: updateSurveyCategoryRequest, response: { 200: adminSurveyCategoryResponse, ...imageRefusals } } },
    async (request) => ({ category: await updateSurveyCategory(db, storage, userOf(request).id, request.params.id, request.body) }),
  );

  app.get('/survey_templates', { schema: { response: { 200: adminTemplatesResponse, ...refusals } } }, async () => ({
    templates: await listAdminTemplates(db),
  }));

  app.get(
    '/survey_templates/:id',
    { schema: { params: idParams, response: { 200: adminTemplateResponse, ...refusals } } },
    async (request) => ({ template: await findAdminTemplate(db, request.params.id) }),
  );

  app.post(
    '/survey_templates',
    { schema: { body: createTemplateRequest, response: { 201: adminTemplateResponse, ...writeRefusals } } },
    async (request, reply) => {
      const template = await createTemplate(db, userOf(request).id, request.body);
      return reply.code(201).send({ template });
    },
  );

  app.patch(
    '/survey_templates/:id',
    { schema: { params: idParams, body: updateTemplateRequest, response: { 200: adminTemplateResponse, ...writeRefusals } } },
    async (request) => ({ template: await updateTemplate(db, userOf(request).id, request.params.id, request.body) }),
  );

  app.put(
    '/survey_templates/:id/questions',
    { schema: { params: idParams, body: replaceQuestionsRequest, response: { 200: adminTemplateResponse, ...refusals } } },
    async (request) => ({ template: await replaceQuestions(db, userOf(request).id, request.params.id, request.body.questions) }),
  );
};
