import type { SsoDiscoverResponse } from '../contract/sso.ts';
import { AUTHORIZATION_HEADER } from '../contract/common.constants.ts';
import type { SignInAnswer } from './account.ts';
import { api } from './http.ts';

/**
 * Single sign-on on the sign-in screens (src/contract/sso.ts describes each route; the admin's calls are in
 * adminSso.ts). The schemas load with the first call, not with the sign-in screen. A failure is ky's HTTPError.
 */
const ssoSchemas = () => import('../contract/sso.ts');
const accountSchemas = () => import('../contract/account.ts');

export type SsoOffer = NonNullable<SsoDiscoverResponse['sso']>;

/** The company SSO of the address's domain, or null (any other address, known or not, is answered alike). */
export async function discoverSso(email: string): Promise<SsoOffer | null> {
  const [client, { ssoDiscoverResponse }] = await Promise.all([api(), ssoSchemas()]);
  return (await client.post('sso/discover', { json: { email } }).json(ssoDiscoverResponse)).sso;
}

/** The one-time code the callback gave the browser, for a session: answered as a sign-in is. */
export async function exchangeSsoCode(code: string): Promise<SignInAnswer> {
  const [client, { signInResponse }] = await Promise.all([api(), accountSchemas()]);
  const response = await client.post('sso/session', { json: { code } });
  const token = response.headers.get(AUTHORIZATION_HEADER);
  if (!token) throw new Error('No authorization token received');
  return { token, ...signInResponse.parse(await response.json()) };
}
