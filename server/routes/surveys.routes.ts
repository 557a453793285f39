import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { errorBody, idParams, successBody } from '../../src/contract/common.ts';
import { findSubmittedRequest } from '../domain/requests/requests.ts';
import {
  beginSurveyRequest,
  beginSurveyResponse,
  categoryRequestSurveysResponse,
  nextScreenItemResponse,
  onboardingAnswersRequest,
  onboardingAnswersResponse,
  recommendedRequestCategoriesResponse,
  submitSurveyResponse,
  surveyCategoriesResponse,
  userRequestAnswerRequest,
  userRequestAnswerResponse,
} from '../../src/contract/surveys.ts';
import type { FileStorage } from '../domain/ports/fileStorage.ts';
import type { Database } from '../db/client.ts';
import { readOnboardingAnswers, saveOnboardingAnswers } from '../domain/surveys/onboarding.ts';
import { recommendedRequestCategories } from '../domain/surveys/recommendations.ts';
import { notFound } from '../domain/shared/userFacingError.ts';
import {
  CATEGORY_NOT_FOUND,
  alphaTemplatesByCategory,
  answerQuestion,
  beginSurvey,
  findSurveyCategory,
  listSurveyCategories,
  nextScreenItem,
  submitSurvey,
} from '../domain/surveys/surveys.ts';
import { userOf } from '../plugins/authenticate.ts';
import type { UserViews } from '../domain/realtime/userViews.ts';
import type { Clock } from '../domain/ports/clock.ts';

const refusals = { 401: errorBody, 404: errorBody, 409: errorBody, 422: errorBody };

/** SPEC §7 Requests and surveys: the catalogue and the survey conversation, under /api/v1. */
export const surveysRoutes: FastifyPluginAsyncZod<{
  db: Database;
  storage: FileStorage;
  views: UserViews;
  clock: Clock;
  /** Runs after a survey became a request (automatic assignment). */
  onRequestFiled?: () => Promise<void>;
}> = async (app, { db, storage, views, clock, onRequestFiled }) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/recommended_request_categories',
    { schema: { response: { 200: recommendedRequestCategoriesResponse, ...refusals } } },
    async (request) => ({
      success: true,
      recommended_request_categories: await recommendedRequestCategories(db, userOf(request).id),
    }),
  );

  app.get(
    '/survey_categories',
    { schema: { response: { 200: surveyCategoriesResponse, ...refusals } } },
    async () => ({ survey_categories: await listSurveyCategories(db) }),
  );

  app.get(
    '/survey_categories/:id/request_surveys',
    { schema: { params: idParams, response: { 200: categoryRequestSurveysResponse, ...refusals } } },
    async (request) => {
      const category = await findSurveyCategory(db, request.params.id);
      if (!category) throw notFound(CATEGORY_NOT_FOUND);
      const templates = await alphaTemplatesByCategory(db, [category.id]);
      return { survey_category: category, request_surveys: templates.get(category.id) ?? [] };
    },
  );

  app.post(
    '/request_surveys/:id/user_request_surveys',
    {
      onRequest: app.requireConfirmedEmail,
      schema: {
        params: idParams,
        // The body may be left out: this app always begins as the alpha client.
        body: z.nullish(beginSurveyRequest),
        response: { 201: beginSurveyResponse, ...refusals },
      },
    },
    async (request, reply) => {
      const forAlpha = request.body?.for_alpha ?? true;
      const session = await beginSurvey(db, userOf(request).id, { requestSurveyId: request.params.id, forAlpha });
      return reply.code(201).send({ success: true, user_request_survey: session });
    },
  );

  app.get(
    '/user_request_surveys/:id/next_screen_item',
    { schema: { params: idParams, response: { 200: nextScreenItemResponse, ...refusals } } },
    async (request) => {
      const { id: userId } = userOf(request);
      const sessionId = request.params.id;
      return { next_item: await views.read(userId, `survey ${sessionId} next`, () => nextScreenItem(db, userId, sessionId)) };
    },
  );

  app.post(
    '/user_request_surveys/:id/user_request_answers',
    { schema: { params: idParams, body: userRequestAnswerRequest, response: { 200: userRequestAnswerResponse, ...refusals } } },
    async (request) => {
      const { object_satisfied_id: questionId, value } = request.body.user_request_answer;
      const answer = await answerQuestion(db, storage, userOf(request).id, request.params.id, { questionId, value });
      return {
        success: true,
        user_request_answer: { id: answer.id, object_satisfied_id: answer.questionId, value: answer.value },
      };
    },
  );

  app.post(
    '/user_request_surveys/:id/submit',
    { onRequest: app.requireConfirmedEmail, schema: { params: idParams, response: { 200: submitSurveyResponse, ...refusals } } },
    async (request) => {
      const submitted = await submitSurvey(db, userOf(request).id, request.params.id, clock.now());
      if (!onRequestFiled) return { success: true, request: submitted };
      // Automatic assignment (issue 28) runs once the request is committed; the answer shows where it went.
      await onRequestFiled();
      return { success: true, request: (await findSubmittedRequest(db, submitted.id)) ?? submitted };
    },
  );
};

/** SPEC §7 onboarding answers, under /api/v1/onboarding_answers. */
export const onboardingRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/',
    { schema: { response: { 200: onboardingAnswersResponse, ...refusals } } },
    async (request) => ({ answers: await readOnboardingAnswers(db, userOf(request).id) }),
  );

  app.post(
    '/',
    { schema: { body: onboardingAnswersRequest, response: { 200: successBody, ...refusals } } },
    async (request) => {
      await saveOnboardingAnswers(db, userOf(request).id, request.body);
      return { success: true };
    },
  );
};
