import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { MFA_REQUIRED_ERROR, MFA_TOKEN_HEADER } from '../../src/contract/common.ts';
import type { Database } from '../db/client.ts';
import { type AuthenticatedUser, findSessionUser, isValidMfaToken, tokenFromAuthorization } from '../domain/sessions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: a valid session, and a valid mfa-token when MFA applies (unless the route skips MFA). */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler after authenticate: concierge or admin only. */
    requireStaff: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    currentUser: AuthenticatedUser | null;
  }
  interface FastifyContextConfig {
    /** The MFA calls themselves, and sign-out, work before an SMS code is verified. */
    skipMfa?: boolean;
  }
}

export const SESSION_EXPIRED_ERROR = 'Your session has expired. Please sign in again.';

/** The signed-in user of a route guarded by `authenticate`. */
export function userOf(request: FastifyRequest): AuthenticatedUser {
  if (!request.currentUser) throw new Error('userOf called on a route without the authenticate preHandler');
  return request.currentUser;
}

export default fp<{ db: Database }>(
  async (app, { db }) => {
    app.decorateRequest('currentUser', null);

    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = tokenFromAuthorization(request.headers.authorization);
      const user = token ? await findSessionUser(db, token) : null;
      if (!user) {
        return reply.code(401).send({ error: SESSION_EXPIRED_ERROR });
      }
      if (user.mfaApplies && !request.routeOptions.config.skipMfa) {
        const mfaToken = request.headers[MFA_TOKEN_HEADER];
        const valid = typeof mfaToken === 'string' && (await isValidMfaToken(db, user.id, mfaToken));
        if (!valid) return reply.code(401).send({ error: MFA_REQUIRED_ERROR });
      }
      request.currentUser = user;
    });

    app.decorate('requireStaff', async (request: FastifyRequest, reply: FastifyReply) => {
      const role = request.currentUser?.role;
      if (role !== 'concierge' && role !== 'admin') {
        return reply.code(403).send({ error: 'This area is for concierge staff only.' });
      }
    });
  },
  { name: 'authenticate' },
);
