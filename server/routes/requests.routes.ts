import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IDEMPOTENCY_KEY_HEADER, errorBody, idParams, idempotentPostHeaders } from '../../src/contract/common.ts';
import {
  REQUEST_LISTS,
  type RequestList,
  createMessageRequest,
  requestResponse,
  requestsResponse,
} from '../../src/contract/requests.ts';
import type { FileStorage } from '../domain/ports/fileStorage.ts';
import type { Database } from '../db/client.ts';
import { postEmployeeMessage } from '../domain/requests/messages.ts';
import type { RealtimeHub } from '../domain/realtime/realtime.ts';
import { findOwnedRequest, listOwnedRequests, requestNotFound } from '../domain/requests/requests.ts';
import { userOf } from '../plugins/authenticate.ts';
import type { UserViews } from '../domain/realtime/userViews.ts';

const refusals = { 401: errorBody, 404: errorBody };

/**
 * SPEC §7 "Requests and surveys", the employee's requests, under /api/v1/requests. Only the owner reaches a request
 * and its thread; for anyone else it does not exist (404).
 */
export const requestsRoutes: FastifyPluginAsyncZod<{ db: Database; storage: FileStorage; realtime: RealtimeHub; views: UserViews }> = async (
  app,
  { db, storage, realtime, views },
) => {
  app.addHook('onRequest', app.authenticate);

  for (const list of Object.keys(REQUEST_LISTS) as RequestList[]) {
    app.get(`/${list}`, { schema: { response: { 200: requestsResponse, ...refusals } } }, async (request) => {
      const { id: userId } = userOf(request);
      return { success: true, requests: await views.read(userId, `requests ${list}`, () => listOwnedRequests(db, userId, REQUEST_LISTS[list])) };
    });
  }

  app.get('/:id', { schema: { params: idParams, response: { 200: requestResponse, ...refusals } } }, async (request) => {
    const found = await findOwnedRequest(db, userOf(request).id, request.params.id);
    if (!found) throw requestNotFound();
    return { success: true, request: found };
  });

  app.post(
    '/:id/messages',
    {
      onRequest: app.requireConfirmedEmail,
      schema: {
        params: idParams,
        headers: idempotentPostHeaders,
        body: createMessageRequest,
        // 413/415: an attachment whose bytes, checked on first use, are too large or not an image or PDF.
        response: { 201: requestResponse, ...refusals, 413: errorBody, 415: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const ownerUserId = userOf(request).id;
      const { body, attachment_keys: attachmentKeys } = request.body.message;
      const notices = await postEmployeeMessage(db, storage, {
        authorUserId: ownerUserId,
        requestId: request.params.id,
        body,
        attachmentKeys,
        idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
      });
      await realtime.publish(notices);
      const updated = await findOwnedRequest(db, ownerUserId, request.params.id);
      if (!updated) throw requestNotFound();
      return reply.code(201).send({ success: true, request: updated });
    },
  );
};
