import * as client from 'openid-client';
import { isLoopbackUrl } from './loopback.ts';
import type { DomainSso } from './ssoSettings.ts';
import { type SecretBox, createSecretBox, ssoKeyFrom } from './secretBox.ts';
import { secretContextOf } from './ssoSettings.ts';

/** The clock skew an ID token's iat, exp and nbf may show against ours (seconds): small, and never unbounded. */
export const CLOCK_TOLERANCE_SECONDS = 60;
/** How long a provider's discovered configuration (endpoints, keys' address) is reused before it is read again. */
const CONFIGURATION_TTL_MS = 10 * 60 * 1000;
const DISCOVERY_TIMEOUT_SECONDS = 10;

export interface OidcClientOptions {
  /** Seals and opens the client secrets (SSO_SECRET_KEY). */
  secretKey: string | undefined;
  /** The time the ID token's expiry is checked against; the real clock unless a test moves it. */
  now?: () => Date;
  /** Every call to identity providers goes through it (openid-client's customFetch); tests may intercept. */
  fetch?: client.CustomFetch;
}

/**
 * The openid-client configurations of the companies' identity providers, discovered from each issuer's
 * /.well-known/openid-configuration and kept a while. Plain http is allowed only for a loopback issuer (the demo's and
 * the tests' provider); any other issuer must be https.
 */
export function createOidcClients(options: OidcClientOptions) {
  const box: SecretBox = createSecretBox(ssoKeyFrom(options.secretKey));
  const cache = new Map<string, { at: number; configuration: Promise<client.Configuration> }>();

  function requestOptions(issuer: URL) {
    return {
      timeout: DISCOVERY_TIMEOUT_SECONDS,
      ...(options.fetch ? { [client.customFetch]: options.fetch } : {}),
      ...(issuer.protocol === 'http:' && isLoopbackUrl(issuer) ? { execute: [client.allowInsecureRequests] } : {}),
    };
  }

  /** Seconds our clock is off from the one the checks use: 0 but when a test moves the clock. */
  function skew(): number {
    return options.now ? Math.round((options.now().getTime() - Date.now()) / 1000) : 0;
  }

  async function discover(sso: Pick<DomainSso, 'issuer' | 'clientId' | 'clientSecretSealed' | 'companyId'>, skewSeconds: number) {
    const issuer = new URL(sso.issuer);
    const secret = box.open(sso.clientSecretSealed, secretContextOf(sso.companyId));
    const metadata = { client_secret: secret, [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS, [client.clockSkew]: skewSeconds };
    return client.discovery(issuer, sso.clientId, metadata, client.ClientSecretPost(secret), requestOptions(issuer));
  }

  return {
    box,
    /** The configuration of a company's provider; discovered again after a while or after its settings change. */
    async configurationFor(sso: DomainSso): Promise<client.Configuration> {
      const skewSeconds = skew();
      const key = `${sso.companyId}|${sso.issuer}|${sso.clientId}|${sso.clientSecretSealed}|${skewSeconds}`;
      const cached = cache.get(key);
      if (cached && Date.now() - cached.at < CONFIGURATION_TTL_MS) return cached.configuration;
      const configuration = discover(sso, skewSeconds);
      cache.set(key, { at: Date.now(), configuration });
      configuration.catch(() => cache.delete(key));
      return configuration;
    },
    /** Reads the issuer's OpenID configuration: an admin's typo is refused before it is stored. */
    async checkIssuer(issuerAddress: string): Promise<void> {
      const issuer = new URL(issuerAddress);
      if (issuer.protocol === 'http:' && !isLoopbackUrl(issuer)) throw new Error('Only a loopback issuer may use http');
      const response = await client.discovery(issuer, 'configuration-check', undefined, client.None(), requestOptions(issuer));
      if (!response.serverMetadata().authorization_endpoint) throw new Error('The issuer names no authorization endpoint');
    },
  };
}

export type OidcClients = ReturnType<typeof createOidcClients>;
