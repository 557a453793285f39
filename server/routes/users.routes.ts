import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  currentUserResponse,
  forgotPasswordRequest,
  resetPasswordRequest,
  signInRequest,
  signInResponse,
  signUpRequest,
  signUpResponse,
  unlockQuery,
  confirmationQuery,
} from '../../src/contract/account.ts';
import { CONFIRMATION_LINK_SENT_MESSAGE } from '../../src/contract/account.rules.ts';
import { PASSWORD_CHANGED_MESSAGE, nameChangeRequest, passwordChangeRequest } from '../../src/contract/profile.ts';
import { AUTHORIZATION_HEADER, errorBody, messageBody, successBody } from '../../src/contract/common.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import {
  PASSWORD_RESET_REQUESTED_MESSAGE,
  PASSWORD_UPDATED_MESSAGE,
  requestPasswordReset,
  resetPassword,
  signIn,
  signUp,
} from '../domain/accounts/accounts.ts';
import { EMAIL_CONFIRMED_MESSAGE, confirmEmail, resendConfirmationLink } from '../domain/accounts/emailConfirmation.ts';
import { ACCOUNT_UNLOCKED_MESSAGE, unlockWithToken } from '../domain/accounts/lockout.ts';
import type { RealtimeHub } from '../domain/realtime/realtime.ts';
import { changePassword, renameUser } from '../domain/accounts/profile.ts';
import { revokeSession } from '../domain/accounts/sessions.ts';
import { describeUser } from '../domain/accounts/users.ts';
import { userOf } from '../plugins/authenticate.ts';
import { authRateLimit } from './authRateLimit.ts';
import type { UserViews } from '../domain/realtime/userViews.ts';

/** SPEC §7 Account, under /api/v1/users. */
const usersRoutes: FastifyPluginAsyncZod<{ config: Config; db: Database; realtime: RealtimeHub; views: UserViews }> = async (
  app,
  { config, db, realtime, views },
) => {
  const rateLimited = { rateLimit: authRateLimit(config) };

  app.post(
    '/sign_in',
    { config: rateLimited, schema: { body: signInRequest, response: { 200: signInResponse, 401: errorBody } } },
    async (request, reply) => {
      const { token, expiresAt, mfa } = await signIn(db, request.body.user, request.ip, config.APP_URL);
      reply.header(AUTHORIZATION_HEADER, `Bearer ${token}`);
      return { expires_at: expiresAt.toISOString(), ...mfa };
    },
  );

  app.post(
    '/sign_up',
    { config: rateLimited, schema: { body: signUpRequest, response: { 201: signUpResponse, 422: errorBody } } },
    async (request, reply) => {
      const { user } = request.body;
      const email = await signUp(
        db,
        {
          email: user.email,
          password: user.password,
          firstName: user.name,
          lastName: user.last_name,
          companySlug: user.company_slug,
        },
        config.APP_URL,
      );
      // SPEC §7: the data is a JSON string holding the e-mail. Fastify sends a string payload as it is, so the
      // string is encoded as JSON here.
      return reply.code(201).type('application/json').send(JSON.stringify(JSON.stringify({ email })));
    },
  );

  app.delete(
    '/sign_out',
    {
      onRequest: app.authenticate,
      config: { skipMfa: true, changesCredentials: true, openToEmployerAdmin: true },
      schema: { response: { 200: successBody } },
    },
    async (request) => {
      const { id: userId, sessionId } = userOf(request);
      await revokeSession(db, sessionId);
      await realtime.publish([{ type: 'sessions.ended', userId, sessionId }]);
      return { success: true };
    },
  );

  app.post(
    '/password',
    { config: rateLimited, schema: { body: forgotPasswordRequest, response: { 200: messageBody, 422: errorBody } } },
    async (request) => {
      await requestPasswordReset(db, request.body.user.email, config.APP_URL);
      return { success: true, message: PASSWORD_RESET_REQUESTED_MESSAGE };
    },
  );

  app.put(
    '/password',
    {
      config: { ...rateLimited, changesCredentials: true },
      schema: { body: resetPasswordRequest, response: { 200: messageBody, 422: errorBody } },
    },
    async (request) => {
      const userId = await resetPassword(db, {
        token: request.body.reset_password_token,
        password: request.body.password,
        passwordConfirmation: request.body.password_confirmation,
      });
      await realtime.publish([{ type: 'sessions.ended', userId, sessionId: null }]);
      return { success: true, message: PASSWORD_UPDATED_MESSAGE };
    },
  );

  app.get(
    '/unlock',
    { config: rateLimited, schema: { querystring: unlockQuery, response: { 200: messageBody, 422: errorBody } } },
    async (request) => {
      await unlockWithToken(db, request.query.unlock_token);
      return { success: true, message: ACCOUNT_UNLOCKED_MESSAGE };
    },
  );

  app.get(
    '/confirmation',
    {
      // The confirmed address grants the companies the sign-up claimed (their benefits, in every session).
      config: { ...rateLimited, changesCredentials: true },
      schema: { querystring: confirmationQuery, response: { 200: messageBody, 422: errorBody } },
    },
    async (request) => {
      await confirmEmail(db, request.query.confirmation_token);
      return { success: true, message: EMAIL_CONFIRMED_MESSAGE };
    },
  );

  app.post(
    '/confirmation',
    {
      onRequest: app.authenticate,
      config: rateLimited,
      schema: { response: { 200: messageBody, 422: errorBody, 429: errorBody } },
    },
    async (request) => {
      await resendConfirmationLink(db, userOf(request).id, config.APP_URL);
      return { success: true, message: CONFIRMATION_LINK_SENT_MESSAGE };
    },
  );

  app.get(
    '/current',
    { onRequest: app.authenticate, config: { openToEmployerAdmin: true }, schema: { response: { 200: currentUserResponse, 401: errorBody } } },
    async (request) => {
      const { id } = userOf(request);
      return { user: await views.read(id, 'current', () => describeUser(db, id, config.INTERNAL_COMPANY_NAMES)) };
    },
  );

  // Account Settings (issue 32 point 3): the signed-in user edits their own name and password, nobody else's.
  app.patch(
    '/current',
    { onRequest: app.authenticate, schema: { body: nameChangeRequest, response: { 200: currentUserResponse, 401: errorBody, 422: errorBody } } },
    async (request) => {
      const { id } = userOf(request);
      await renameUser(db, id, { firstName: request.body.user.name, lastName: request.body.user.last_name });
      return { user: await describeUser(db, id, config.INTERNAL_COMPANY_NAMES) };
    },
  );

  app.put(
    '/current/password',
    {
      onRequest: app.authenticate,
      config: { ...rateLimited, changesCredentials: true },
      schema: { body: passwordChangeRequest, response: { 200: messageBody, 401: errorBody, 422: errorBody, 429: errorBody } },
    },
    async (request) => {
      const { id: userId, sessionId } = userOf(request);
      const ended = await changePassword(db, {
        userId,
        sessionId,
        currentPassword: request.body.current_password,
        password: request.body.password,
      });
      await realtime.publish(ended.map((endedSessionId) => ({ type: 'sessions.ended' as const, userId, sessionId: endedSessionId })));
      return { success: true, message: PASSWORD_CHANGED_MESSAGE };
    },
  );
};

export default usersRoutes;
