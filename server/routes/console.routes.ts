import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IDEMPOTENCY_KEY_HEADER, errorBody, idParams, idempotentPostHeaders } from '../../src/contract/common.ts';
import {
  assignRequest,
  consoleRequestResponse,
  consoleRequestsQuery,
  consoleRequestsResponse,
  markReadResponse,
  noteRequest,
  previewRequest,
  previewResponse,
  replyRequest,
  staffResponse,
  statusChangeRequest,
} from '../../src/contract/console.ts';
import type { FileStorage } from '../domain/ports/fileStorage.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import {
  assignRequest as assign,
  changeRequestStatus,
  findConsoleRequest,
  listConsoleRequests,
  listStaff,
  markRequestRead,
  markWaitingOnEmployee,
} from '../domain/requests/console.ts';
import type { Clock } from '../domain/ports/clock.ts';
import { waitingRequest } from '../../src/contract/sla.ts';
import { addInternalNote, postConciergeReply } from '../domain/requests/messages.ts';
import type { RealtimeHub } from '../domain/realtime/realtime.ts';
import { requestNotFound } from '../domain/requests/requests.ts';
import { markdownToSafeHtml } from '../domain/requests/sanitize.ts';
import { assignWaitingRequests } from '../domain/requests/assignment.ts';
import { userOf } from '../plugins/authenticate.ts';

const refusals = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };

/** The concierge console's API, under /api/v1/console: staff only (403 for employees), on every route. */
export const consoleRoutes: FastifyPluginAsyncZod<{
  config: Config;
  db: Database;
  storage: FileStorage;
  realtime: RealtimeHub;
  /** Signs the completion e-mail's rating links (issue 28). */
  signingSecret: string;
  clock: Clock;
}> = async (app, { config, db, storage, realtime, signingSecret, clock }) => {
  // Before the body is even read: nobody but staff learns anything from this API, not even its validation rules.
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireStaff);

  /** The request as the caller now sees it; after a change, once the change is announced. */
  async function answerWithRequest(staffUserId: number, requestId: number) {
    const request = await findConsoleRequest(db, staffUserId, requestId, clock.now());
    if (!request) throw requestNotFound();
    return { request };
  }

  app.get(
    '/requests',
    { schema: { querystring: consoleRequestsQuery, response: { 200: consoleRequestsResponse, ...refusals } } },
    async (request) => listConsoleRequests(db, userOf(request).id, request.query, clock.now()),
  );

  app.get('/staff', { schema: { response: { 200: staffResponse, ...refusals } } }, async () => ({ staff: await listStaff(db) }));

  app.get(
    '/requests/:id',
    { schema: { params: idParams, response: { 200: consoleRequestResponse, ...refusals } } },
    async (request) => answerWithRequest(userOf(request).id, request.params.id),
  );

  app.post(
    '/requests/:id/claim',
    { schema: { params: idParams, response: { 200: consoleRequestResponse, ...refusals, 409: errorBody } } },
    async (request) => {
      const staffUserId = userOf(request).id;
      const requestId = request.params.id;
      await realtime.publish(
        await assign(db, { actorUserId: staffUserId, requestId, assigneeUserId: staffUserId, appUrl: config.APP_URL, claimOnly: true }),
      );
      return answerWithRequest(staffUserId, requestId);
    },
  );

  app.post(
    '/requests/:id/assign',
    { schema: { params: idParams, body: assignRequest, response: { 200: consoleRequestResponse, ...refusals } } },
    async (request) => {
      const staffUserId = userOf(request).id;
      const requestId = request.params.id;
      const assigneeUserId = request.body.assignee_id;
      await realtime.publish(await assign(db, { actorUserId: staffUserId, requestId, assigneeUserId, appUrl: config.APP_URL }));
      return answerWithRequest(staffUserId, requestId);
    },
  );

  app.post(
    '/requests/:id/status',
    {
      schema: { params: idParams, body: statusChangeRequest, response: { 200: consoleRequestResponse, ...refusals, 409: errorBody } },
    },
    async (request) => {
      const staffUserId = userOf(request).id;
      const requestId = request.params.id;
      const { status } = request.body;
      await realtime.publish(
        await changeRequestStatus(db, { actorUserId: staffUserId, requestId, status, appUrl: config.APP_URL, signingSecret, now: clock.now() }),
      );
      // A completion frees its concierge's capacity: a waiting request may go to them now.
      if (status === 'closed') await realtime.publish(await assignWaitingRequests(db, config.APP_URL));
      return answerWithRequest(staffUserId, requestId);
    },
  );

  app.post(
    '/requests/:id/messages',
    {
      schema: {
        params: idParams,
        headers: idempotentPostHeaders,
        body: replyRequest,
        response: { 201: consoleRequestResponse, ...refusals, 413: errorBody, 415: errorBody },
      },
    },
    async (request, reply) => {
      const staffUserId = userOf(request).id;
      const requestId = request.params.id;
      const { body_markdown: markdown, attachment_keys: attachmentKeys } = request.body;
      const notices = await postConciergeReply(db, storage, {
        authorUserId: staffUserId,
        requestId,
        markdown,
        attachmentKeys,
        replyEmailDelayMs: config.REPLY_EMAIL_DELAY_MS,
        idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
        now: clock.now(),
      });
      await realtime.publish(notices);
      return reply.code(201).send(await answerWithRequest(staffUserId, requestId));
    },
  );

  // Beyond SPEC (issue 28): waiting on the employee stops the request's turnaround clock until they write.
  app.post(
    '/requests/:id/waiting',
    { schema: { params: idParams, body: waitingRequest, response: { 200: consoleRequestResponse, ...refusals, 409: errorBody } } },
    async (request) => {
      const requestId = request.params.id;
      await realtime.publish(await markWaitingOnEmployee(db, { requestId, waiting: request.body.waiting, now: clock.now() }));
      return answerWithRequest(userOf(request).id, requestId);
    },
  );

  app.post(
    '/requests/:id/notes',
    { schema: { params: idParams, headers: idempotentPostHeaders, body: noteRequest, response: { 201: consoleRequestResponse, ...refusals } } },
    async (request, reply) => {
      const staffUserId = userOf(request).id;
      const requestId = request.params.id;
      await realtime.publish(await addInternalNote(db, {
          authorUserId: staffUserId,
          requestId,
          markdown: request.body.body_markdown,
          idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
        }));
      return reply.code(201).send(await answerWithRequest(staffUserId, requestId));
    },
  );

  app.post(
    '/requests/:id/read',
    { schema: { params: idParams, response: { 200: markReadResponse, ...refusals } } },
    async (request) => {
      const notices = await markRequestRead(db, userOf(request).id, request.params.id);
      if (!notices) throw requestNotFound();
      await realtime.publish(notices);
      return { success: true, unread_count: 0 };
    },
  );

  app.post(
    '/preview',
    { schema: { body: previewRequest, response: { 200: previewResponse, ...refusals } } },
    async (request) => ({ body_html: markdownToSafeHtml(request.body.body_markdown) }),
  );
};
