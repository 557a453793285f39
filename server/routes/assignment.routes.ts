import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assignmentSettingsRequest,
  assignmentSettingsResponse,
  availabilityRequest,
  availabilityResponse,
  fillSavedReplyRequest,
  filledSavedReply,
  savedRepliesResponse,
  savedReplyRequest,
  savedReplyResponse,
  staffCapRequest,
  staffCapResponse,
  staffCapsResponse,
} from '../../src/contract/assignment.ts';
import { errorBody, idParams } from '../../src/contract/common.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import {
  createSavedReply,
  fillSavedReply,
  listSavedReplies,
  setSavedReplyActive,
  updateSavedReply,
} from '../domain/admin/savedReplies.ts';
import type { RealtimeHub } from '../domain/realtime/realtime.ts';
import {
  assignWaitingRequests,
  availabilityOf,
  findAssignmentSettings,
  findStaffCap,
  listStaffCaps,
  setAvailability,
  setDefaultCap,
  setStaffCap,
} from '../domain/requests/assignment.ts';
import { userOf } from '../plugins/authenticate.ts';

const refusals = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };
const writeRefusals = { ...refusals, 409: errorBody };

interface AssignmentRouteOptions {
  config: Config;
  db: Database;
  realtime: RealtimeHub;
}

/** The console's part of assignment, under /api/v1/console: availability and the saved replies, for staff. */
export const assignmentConsoleRoutes: FastifyPluginAsyncZod<AssignmentRouteOptions> = async (app, { config, db, realtime }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireStaff);

  app.get('/availability', { schema: { response: { 200: availabilityResponse, ...refusals } } }, async (request) =>
    availabilityOf(db, userOf(request).id),
  );

  app.put(
    '/availability',
    { schema: { body: availabilityRequest, response: { 200: availabilityResponse, ...refusals } } },
    async (request) => {
      const userId = userOf(request).id;
      await setAvailability(db, userId, request.body.available);
      // Someone who comes back takes what waited for them at once.
      if (request.body.available) await realtime.publish(await assignWaitingRequests(db, config.APP_URL));
      return availabilityOf(db, userId);
    },
  );

  app.get('/saved_replies', { schema: { response: { 200: savedRepliesResponse, ...refusals } } }, async () => ({
    saved_replies: await listSavedReplies(db, { activeOnly: true }),
  }));

  app.post(
    '/saved_replies/:id/fill',
    { schema: { params: idParams, body: fillSavedReplyRequest, response: { 200: filledSavedReply, ...refusals } } },
    async (request) =>
      fillSavedReply(db, { replyId: request.params.id, requestId: request.body.request_id, conciergeUserId: userOf(request).id }),
  );
};

/** The admin's part, under /api/v1/admin: the caps of open requests and the saved replies, every change audit-logged. */
export const assignmentAdminRoutes: FastifyPluginAsyncZod<AssignmentRouteOptions> = async (app, { config, db, realtime }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);

  /** A raised cap may let a waiting request go to someone at once. */
  const assignWaiting = async () => realtime.publish(await assignWaitingRequests(db, config.APP_URL));

  app.get('/assignment', { schema: { response: { 200: assignmentSettingsResponse, ...refusals } } }, async () => ({
    settings: await findAssignmentSettings(db),
  }));

  app.put(
    '/assignment',
    { schema: { body: assignmentSettingsRequest, response: { 200: assignmentSettingsResponse, ...refusals } } },
    async (request) => {
      const settings = await setDefaultCap(db, userOf(request).id, request.body.default_open_request_cap);
      await assignWaiting();
      return { settings };
    },
  );

  app.get('/assignment/staff', { schema: { response: { 200: staffCapsResponse, ...refusals } } }, async () => ({
    staff: await listStaffCaps(db),
  }));

  app.patch(
    '/assignment/staff/:id',
    { schema: { params: idParams, body: staffCapRequest, response: { 200: staffCapResponse, ...refusals } } },
    async (request) => {
      await setStaffCap(db, userOf(request).id, request.params.id, request.body.cap_override);
      await assignWaiting();
      return { staff_member: await findStaffCap(db, request.params.id) };
    },
  );

  app.get('/saved_replies', { schema: { response: { 200: savedRepliesResponse, ...refusals } } }, async () => ({
    saved_replies: await listSavedReplies(db, { activeOnly: false }),
  }));

  app.post(
    '/saved_replies',
    { schema: { body: savedReplyRequest, response: { 201: savedReplyResponse, ...writeRefusals } } },
    async (request, reply) => reply.code(201).send({ saved_reply: await createSavedReply(db, userOf(request).id, request.body) }),
  );

  app.patch(
    '/saved_replies/:id',
    { schema: { params: idParams, body: savedReplyRequest, response: { 200: savedReplyResponse, ...writeRefusals } } },
    async (request) => ({ saved_reply: await updateSavedReply(db, userOf(request).id, request.params.id, request.body) }),
  );

  for (const [action, active] of [['archive', false], ['restore', true]] as const) {
    app.post(
      `/saved_replies/:id/${action}`,
      { schema: { params: idParams, response: { 200: savedReplyResponse, ...refusals } } },
      async (request) => ({ saved_reply: await setSavedReplyActive(db, userOf(request).id, request.params.id, active) }),
    );
  }
};
