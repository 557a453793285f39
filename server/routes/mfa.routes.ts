import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mfaEnrollRequest, mfaVerifyRequest } from '../../src/contract/account.ts';
import { MFA_TOKEN_HEADER, errorBody, successBody } from '../../src/contract/common.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { sendCode, startEnrollment, verifyCode } from '../domain/accounts/otp.ts';
import { userOf } from '../plugins/authenticate.ts';
import { authRateLimit } from './authRateLimit.ts';

/** SPEC §7 MFA calls, under /api/v1/mfa. They need a session but, being the way to MFA, no mfa-token. */
const mfaRoutes: FastifyPluginAsyncZod<{ config: Config; db: Database }> = async (app, { config, db }) => {
  const failure = { 401: errorBody, 422: errorBody, 429: errorBody };
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/',
    {
      config: { skipMfa: true },
      schema: { body: mfaEnrollRequest, response: { 200: successBody, ...failure } },
    },
    async (request) => {
      const { id: userId, mfaVerified } = userOf(request);
      await startEnrollment(db, { userId, mfaVerified }, request.body.mfa_number);
      return { success: true };
    },
  );

  app.post(
    '/send-otp',
    {
      config: { skipMfa: true, rateLimit: authRateLimit(config) },
      schema: { response: { 200: successBody, ...failure } },
    },
    async (request) => {
      await sendCode(db, userOf(request).id);
      return { success: true };
    },
  );

  app.post(
    '/verify',
    {
      // An enrolment's code sets the phone, and MFA then applies to every session of the user.
      config: { skipMfa: true, changesCredentials: true, rateLimit: authRateLimit(config) },
      schema: { body: mfaVerifyRequest, response: { 200: successBody, ...failure } },
    },
    async (request, reply) => {
      const mfaToken = await verifyCode(db, userOf(request).id, request.body.otp);
      reply.header(MFA_TOKEN_HEADER, mfaToken);
      return { success: true };
    },
  );
};

export default mfaRoutes;
