import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../src/contract/common.ts';
import { notificationSettings, notificationSettingsResponse } from '../../src/contract/notifications.ts';
import type { Database } from '../db/client.ts';
import { replyEmailChoiceOf, setReplyEmailChoice } from '../domain/requests/replyEmails.ts';
import { userOf } from '../plugins/authenticate.ts';

/** Beyond SPEC (issue 32): the signed-in user's choice of reply e-mails, under /api/v1/notification_settings. */
export const notificationsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/', { schema: { response: { 200: notificationSettingsResponse, 401: errorBody } } }, async (request) => ({
    success: true,
    settings: { reply_emails: await replyEmailChoiceOf(db, userOf(request).id) },
  }));

  app.put(
    '/',
    { schema: { body: notificationSettings, response: { 200: notificationSettingsResponse, 401: errorBody, 422: errorBody } } },
    async (request) => {
      await setReplyEmailChoice(db, userOf(request).id, request.body.reply_emails);
      return { success: true, settings: { reply_emails: request.body.reply_emails } };
    },
  );
};
