import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { MFA_REQUIRED_ERROR, MFA_TOKEN_HEADER } from '../../src/contract/common.ts';
import type { Database } from '../db/client.ts';
import { EMAIL_CONFIRMATION_REQUIRED_ERROR } from '../domain/accounts/emailConfirmation.ts';
import type { RealtimeHub } from '../domain/realtime/realtime.ts';
import { createSessionCache } from '../domain/accounts/sessionCache.ts';
import { type AuthenticatedUser, tokenFromAuthorization, turnedOffSessionRefusal } from '../domain/accounts/sessions.ts';
import { unprocessable } from '../domain/shared/userFacingError.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The onRequest hook of every signed-in route (so a caller without a session is refused before the body is read):
     * a valid session, and a valid mfa-token when MFA applies (unless the route skips MFA).
     */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest hook after authenticate: concierge or admin only. */
    requireStaff: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest hook after authenticate: admin only (the console's admin area). */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest hook after authenticate: an employer admin only (their company's report). */
    requireEmployerAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest hook after authenticate: the caller's address is confirmed (what reaches staff needs it). */
    requireConfirmedEmail: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    currentUser: AuthenticatedUser | null;
  }
  interface FastifyContextConfig {
    /** The MFA calls themselves, and sign-out, work before an SMS code is verified. */
    skipMfa?: boolean;
    /**
     * The call revokes sessions or MFA devices, or changes what MFA a user needs: it answers only once the session
     * cache of this process has forgotten what it changed (see server/domain/accounts/sessionCache.ts).
     */
    changesCredentials?: boolean;
    /**
     * The route is open to an employer admin (issue 29 part 3): their report, who they are, signing out. Every other
     * signed-in route answers them 403, so the role reaches nothing by a route forgetting to check it.
     */
    openToEmployerAdmin?: boolean;
  }
}

export const SESSION_EXPIRED_ERROR = 'Your session has expired. Please sign in again.';
export const STAFF_ONLY_ERROR = 'This area is for concierge staff only.';
export const ADMIN_ONLY_ERROR = 'This area is for administrators only.';
export const EMPLOYER_ADMIN_AREA_ERROR = 'An employer admin account can open its company report only.';
export const EMPLOYER_ADMIN_ONLY_ERROR = 'This report is for employer admins only.';

/** The signed-in user of a route guarded by `authenticate`. */
export function userOf(request: FastifyRequest): AuthenticatedUser {
  if (!request.currentUser) throw new Error('userOf called on a route without the authenticate hook');
  return request.currentUser;
}

export default fp<{ db: Database; realtime: RealtimeHub }>(
  async (app, { db, realtime }) => {
    const sessions = createSessionCache(db, realtime);
    app.addHook('onClose', () => sessions.close());
    app.decorateRequest('currentUser', null);

    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = tokenFromAuthorization(request.headers.authorization);
      const mfaToken = request.headers[MFA_TOKEN_HEADER];
      const found = token ? await sessions.find(token, typeof mfaToken === 'string' ? mfaToken : undefined) : null;
      if (!found) {
        const turnedOff = token ? await turnedOffSessionRefusal(db, token) : null;
        return reply.code(401).send({ error: turnedOff ?? SESSION_EXPIRED_ERROR });
      }
      if (found.mfaApplies && !request.routeOptions.config.skipMfa && found.mfaTokenExpiresAt === null) {
        return reply.code(401).send({ error: MFA_REQUIRED_ERROR });
      }
      if (found.role === 'employer_admin' && !request.routeOptions.config.openToEmployerAdmin) {
        return reply.code(403).send({ error: EMPLOYER_ADMIN_AREA_ERROR });
      }
      const { id, externalId, email, role, sessionId, mfaApplies, grantedCompanyIds, emailConfirmed } = found;
      const mfaVerified = found.mfaTokenExpiresAt !== null;
      request.currentUser = { id, externalId, email, role, sessionId, mfaApplies, grantedCompanyIds, emailConfirmed, mfaVerified };
    });

    app.addHook('onSend', async (request) => {
      if (request.routeOptions.config.changesCredentials) await sessions.settle();
    });

    app.decorate('requireStaff', async (request: FastifyRequest, reply: FastifyReply) => {
      const role = request.currentUser?.role;
      if (role !== 'concierge' && role !== 'admin') {
        return reply.code(403).send({ error: STAFF_ONLY_ERROR });
      }
    });

    app.decorate('requireConfirmedEmail', async (request: FastifyRequest) => {
      if (!userOf(request).emailConfirmed) throw unprocessable(EMAIL_CONFIRMATION_REQUIRED_ERROR);
    });

    app.decorate('requireEmployerAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.currentUser?.role !== 'employer_admin') {
        return reply.code(403).send({ error: EMPLOYER_ADMIN_ONLY_ERROR });
      }
    });

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.currentUser?.role !== 'admin') {
        return reply.code(403).send({ error: ADMIN_ONLY_ERROR });
      }
    });
  },
  { name: 'authenticate' },
);
