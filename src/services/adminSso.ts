import type { AdminSsoResponse, PutSsoRequest } from '../contract/sso.ts';
import { api } from './http.ts';

/** A company's single sign-on in the admin area (src/contract/sso.ts describes each route). */
const ssoSchemas = () => import('../contract/sso.ts');

const ssoPath = (companyId: number) => `admin/companies/${companyId}/sso`;

/** The company's SSO as the admin sees it (never the client secret), and the redirect URI to register. */
export async function fetchCompanySso(companyId: number): Promise<AdminSsoResponse> {
  const [client, { adminSsoResponse }] = await Promise.all([api(), ssoSchemas()]);
  return client.get(ssoPath(companyId)).json(adminSsoResponse);
}

/** Sets the company's SSO; leave `client_secret` out to keep the stored one. */
export async function saveCompanySso(companyId: number, settings: PutSsoRequest): Promise<AdminSsoResponse> {
  const [client, { adminSsoResponse }] = await Promise.all([api(), ssoSchemas()]);
  return client.put(ssoPath(companyId), { json: settings }).json(adminSsoResponse);
}
