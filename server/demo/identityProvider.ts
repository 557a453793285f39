import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (`oidc-provider`, certified) on loopback, for the tests and the demo only (a dev
 * dependency: production never loads this file). Its sign-in page lists its accounts: choosing one signs in as it,
 * Cancel answers access_denied. The first-party consent is given with the sign-in.
 */

export interface IdentityAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

export interface IdentityClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface IdentityProviderOptions {
  accounts: IdentityAccount[];
  clients: IdentityClient[];
  /** 0 (the default) takes a free port. */
  port?: number;
  /** How long its ID tokens are valid (seconds). */
  idTokenTtlSeconds?: number;
}

export interface RunningIdentityProvider {
  issuer: string;
  close(): Promise<void>;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 10_000) request.destroy(new Error('form too large'));
    });
    request.on('end', () => resolve(new URLSearchParams(body)));
    request.on('error', reject);
  });
}

function signInPage(uid: string, accounts: IdentityAccount[], hint: string | undefined): string {
  const choices = accounts
    .map((account, index) => {
      const checked = account.email === hint || (hint === undefined && index === 0) ? ' checked' : '';
      const label = `${account.given_name} ${account.family_name} (${account.email})`;
      return `<li><label><input type="radio" name="account" value="${escapeHtml(account.sub)}"${checked}> ${escapeHtml(label)}</label></li>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo identity provider</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}ul{list-style:none;padding:0}li{margin:.5rem 0}
button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}</style></head><body>
<main><h1>Demo identity provider</h1><p>Sign in as one of this provider’s accounts.</p>
<form method="post" action="/interaction/${escapeHtml(uid)}/login"><fieldset><legend>Account</legend><ul>${choices}</ul></fieldset>
<button type="submit">Sign in</button><button type="submit" formaction="/interaction/${escapeHtml(uid)}/abort">Cancel</button></form></main>
</body></html>`;
}

export async function startIdentityProvider(options: IdentityProviderOptions): Promise<RunningIdentityProvider> {
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      ...client,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    async findAccount(_context: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ ...account }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    // The granted scopes' claims go into the ID token, as Okta's and Entra ID's do (not only into userinfo).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    ttl: { IdToken: options.idTokenTtlSeconds ?? 3600 },
  });
  const handle = provider.callback();

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec(new URL(request.url ?? '/', issuer).pathname);
    if (!match) return handle(request, response);
    void (async () => {
      const details = await provider.interactionDetails(request, response);
      const action = request.method === 'POST' ? match[2] : undefined;
      if (action === 'abort') {
        return provider.interactionFinished(request, response, { error: 'access_denied', error_description: 'The user cancelled' }, { mergeWithLastSubmission: false });
      }
      if (action === 'login') {
        const accountId = (await readForm(request)).get('account') ?? '';
        if (!accounts.has(accountId)) throw new Error('unknown account');
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        return provider.interactionFinished(request, response, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      }
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(signInPage(details.uid, [...accounts.values()], hint));
    })().catch((error: unknown) => {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(`The sign-in could not go on: ${(error as Error).message}`);
    });
  });

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
