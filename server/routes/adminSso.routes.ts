import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, idParams } from '../../src/contract/common.ts';
import { adminSsoResponse, putSsoRequest } from '../../src/contract/sso.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { OidcClients } from '../domain/sso/oidcClients.ts';
import { findCompany } from '../domain/admin/companies.ts';
import { findCompanySso, putCompanySso, removeCompanySso, ssoRedirectUri } from '../domain/sso/ssoSettings.ts';
import { invalidField } from '../domain/shared/userFacingError.ts';
import { userOf } from '../plugins/authenticate.ts';

const refusals = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };

export function issuerUnreachableError(issuer: string): string {
  return `We could not read the OpenID configuration of ${issuer}. Check the issuer’s address.`;
}

/**
 * A company's single sign-on, under /api/v1/admin/companies/{id}/sso, for admins only (issue 29): read (never the
 * client secret), set (the issuer must answer its OpenID configuration), remove. Every change is audited.
 */
export const adminSsoRoutes: FastifyPluginAsyncZod<{ config: Config; db: Database; clients: OidcClients }> = async (
  app,
  { config, db, clients },
) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);
  const answer = async (companyId: number) => {
    const { id, name, email_domains } = await findCompany(db, companyId);
    return { company: { id, name, email_domains }, sso: await findCompanySso(db, companyId, config.APP_URL), redirect_uri: ssoRedirectUri(config.APP_URL) };
  };

  app.get('/companies/:id/sso', { schema: { params: idParams, response: { 200: adminSsoResponse, ...refusals } } }, async (request) =>
    answer(request.params.id),
  );

  app.put(
    '/companies/:id/sso',
    { schema: { params: idParams, body: putSsoRequest, response: { 200: adminSsoResponse, ...refusals } } },
    async (request) => {
      await putCompanySso(db, clients.box, {
        actorUserId: userOf(request).id,
        companyId: request.params.id,
        input: request.body,
        appUrl: config.APP_URL,
        check: async (issuer) => {
          try {
            await clients.checkIssuer(issuer);
          } catch (error) {
            request.log.info({ issuer, detail: (error as Error).message }, 'SSO issuer refused');
            throw invalidField('issuer', issuerUnreachableError(issuer));
          }
        },
      });
      return answer(request.params.id);
    },
  );

  app.delete('/companies/:id/sso', { schema: { params: idParams, response: { 200: adminSsoResponse, ...refusals } } }, async (request) => {
    await removeCompanySso(db, userOf(request).id, request.params.id, config.APP_URL);
    return answer(request.params.id);
  });
};
