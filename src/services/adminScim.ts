import { type CreateScimTokenRequest, type ScimToken, scimTokenResponse, scimTokensResponse } from '../contract/scim.ts';
import { api } from './http.ts';

/**
 * The companies' SCIM tokens in the admin area (src/contract/scim.ts). The answers of creation and rotation hold the
 * token itself, which is never shown again.
 */

const tokenPath = (tokenId: number, action: 'rotate' | 'revoke') => `admin/scim_tokens/${tokenId}/${action}`;

export async function listScimTokens(): Promise<ScimToken[]> {
  const client = await api();
  return (await client.get('admin/scim_tokens').json(scimTokensResponse)).scim_tokens;
}

export async function createScimToken(request: CreateScimTokenRequest): Promise<ScimToken> {
  const client = await api();
  return (await client.post('admin/scim_tokens', { json: request }).json(scimTokenResponse)).scim_token;
}

export async function rotateScimToken(tokenId: number): Promise<ScimToken> {
  const client = await api();
  return (await client.post(tokenPath(tokenId, 'rotate')).json(scimTokenResponse)).scim_token;
}

export async function revokeScimToken(tokenId: number): Promise<ScimToken> {
  const client = await api();
  return (await client.post(tokenPath(tokenId, 'revoke')).json(scimTokenResponse)).scim_token;
}
