import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IDEMPOTENCY_KEY_HEADER, errorBody, idParams, idempotentPostHeaders } from '../../src/contract/common.ts';
import {
  MARK_READ_ERRORS,
  REQUEST_LISTS,
  type RequestList,
  createMessageRequest,
  markRequestReadRequest,
  markRequestReadResponse,
  olderMessagesQuery,
  olderMessagesResponse,
  requestResponse,
  requestsResponse,
  unreadRepliesResponse,
} from '../../src/contract/requests.ts';
import type { FileStorage } from '../domain/ports/fileStorage.ts';
import type { Database } from '../db/client.ts';
import { postEmployeeMessage } from '../domain/requests/messages.ts';
import { findServicePromise } from '../domain/sla/serviceClock.ts';
import type { Clock } from '../domain/ports/clock.ts';
import type { RealtimeHub } from '../domain/realtime/realtime.ts';
import {
  findOlderMessages,
  findOwnedRequest,
  isStaffRole,
  listOwnedRequests,
  requestNotFound,
  searchOwnedRequests,
} from '../domain/requests/requests.ts';
import { markReadByOwner, unreadRepliesOfOwner } from '../domain/requests/unread.ts';
import { forbidden } from '../domain/shared/userFacingError.ts';
import { searchQuery } from '../../src/contract/search.ts';
import { userOf } from '../plugins/authenticate.ts';
import type { UserViews } from '../domain/realtime/userViews.ts';

const refusals = { 401: errorBody, 404: errorBody };

/**
 * SPEC §7 "Requests and surveys", the employee's requests, under /api/v1/requests. Only the owner reaches a request
 * and its thread; for anyone else it does not exist (404).
 */
export const requestsRoutes: FastifyPluginAsyncZod<{ db: Database; storage: FileStorage; realtime: RealtimeHub; views: UserViews; clock: Clock }> = async (
  app,
  { db, storage, realtime, views, clock },
) => {
  app.addHook('onRequest', app.authenticate);

  for (const list of Object.keys(REQUEST_LISTS) as RequestList[]) {
    app.get(`/${list}`, { schema: { response: { 200: requestsResponse, ...refusals } } }, async (request) => {
      const { id: userId } = userOf(request);
      return { success: true, requests: await views.read(userId, `requests ${list}`, () => listOwnedRequests(db, userId, REQUEST_LISTS[list])) };
    });
  }

  // Beyond SPEC (issue 32): the employee's unread replies, for the navigation's count and the tab title.
  app.get('/unread', { schema: { response: { 200: unreadRepliesResponse, 401: errorBody } } }, async (request) => {
    const unread = await unreadRepliesOfOwner(db, userOf(request).id);
    return {
      success: true,
      unread_count: unread.reduce((total, { unreadCount }) => total + unreadCount, 0),
      requests: unread.map(({ id, unreadCount }) => ({ id, unread_count: unreadCount })),
    };
  });

  // Beyond SPEC (issue 32): the owner read the thread up to a message; their other tabs and devices hear it.
  app.post(
    '/:id/read',
    {
      schema: {
        params: idParams,
        body: markRequestReadRequest,
        response: { 200: markRequestReadResponse, ...refusals, 403: errorBody, 422: errorBody },
      },
    },
    async (request) => {
      const caller = userOf(request);
      // Staff read threads in the console, under their own markers; the owner's marker is the owner's alone.
      if (isStaffRole(caller.role)) throw forbidden(MARK_READ_ERRORS.staff);
      const requestId = request.params.id;
      const read = await markReadByOwner(db, { ownerUserId: caller.id, requestId, messageId: request.body.message_id });
      await realtime.publish([{ type: 'request.read', requestId, ownerUserId: caller.id }]);
      return { success: true, last_read_message_id: read.lastReadMessageId, unread_count: read.unreadCount };
    },
  );

  app.get('/search', { schema: { querystring: searchQuery, response: { 200: requestsResponse, 401: errorBody, 422: errorBody } } }, async (request) => ({
    success: true,
    requests: await searchOwnedRequests(db, userOf(request).id, request.query.q),
  }));

  app.get('/:id', { schema: { params: idParams, response: { 200: requestResponse, ...refusals } } }, async (request) => {
    const found = await findOwnedRequest(db, userOf(request).id, request.params.id);
    if (!found) throw requestNotFound();
    return { success: true, request: { ...found, service_promise: await findServicePromise(db, found.id) } };
  });

  // Beyond SPEC (issue 31): a long thread's older messages, a page before the oldest one shown.
  app.get(
    '/:id/messages',
    { schema: { params: idParams, querystring: olderMessagesQuery, response: { 200: olderMessagesResponse, ...refusals, 422: errorBody } } },
    async (request) => {
      const older = await findOlderMessages(db, { ownerUserId: userOf(request).id, requestId: request.params.id, before: request.query.before });
      if (!older) throw requestNotFound();
      return { success: true, messages: older.messages, has_older_messages: older.hasOlderMessages };
    },
  );

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
      const { notices, request: updated } = await postEmployeeMessage(db, storage, {
        authorUserId: ownerUserId,
        requestId: request.params.id,
        body,
        attachmentKeys,
        idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
        now: clock.now(),
      });
      await realtime.publish(notices);
      return reply.code(201).send({ success: true, request: updated });
    },
  );
};
