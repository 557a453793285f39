import * as z from 'zod/mini';

/**
 * SPEC §5 start-up configuration. VITE_API_BASE_URL may be "/" (same origin as the page), which is how the
 * app is served by its own server; it must resolve to a valid URL either way.
 */
const envSchema = z.object({
  VITE_API_BASE_URL: z.string().check(z.minLength(1)),
  VITE_ANALYTICS_ID: z.string().check(z.minLength(1)),
  VITE_REPORT_ANALYTICS: z.enum(['true', 'false']),
  VITE_REPORT_ERRORS: z.enum(['true', 'false']),
  VITE_ALLOW_PRODUCTION_API: z.optional(z.enum(['true', 'false'])),
});

export const PRODUCT_NAME = 'Life Concierge';

/** SPEC §7: the known production origins; any other origin must not talk to the production API. */
export const PRODUCTION_ORIGINS = [
  'https://app.lifeconcierge.com',
  'https://www.lifeconcierge.com',
  'https://lifeconcierge.com',
  'https://concierge.lifeconcierge.com',
  'https://benefits.lifeconcierge.com',
];
export const LOCAL_API_ORIGIN = 'http://localhost:3000';

export class MissingEnvironmentError extends Error {
  constructor() {
    super('Missing environment variables');
  }
}

export interface AppConfig {
  apiBaseUrl: string;
  analyticsId: string;
  reportAnalytics: boolean;
  reportErrors: boolean;
}

/**
 * Validates the build-time environment. A page served from a non-production origin that points at a production
 * API is pointed at the local API instead, unless VITE_ALLOW_PRODUCTION_API is "true".
 */
export function readConfig(env: Record<string, unknown> = import.meta.env, pageOrigin = window.location.origin): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new MissingEnvironmentError();
  let apiBase: URL;
  try {
    apiBase = new URL(parsed.data.VITE_API_BASE_URL, pageOrigin);
  } catch {
    throw new MissingEnvironmentError();
  }
  const pointsAtProduction = PRODUCTION_ORIGINS.includes(apiBase.origin);
  const pageIsProduction = PRODUCTION_ORIGINS.includes(pageOrigin);
  if (pointsAtProduction && !pageIsProduction && parsed.data.VITE_ALLOW_PRODUCTION_API !== 'true') {
    apiBase = new URL(LOCAL_API_ORIGIN);
  }
  return {
    apiBaseUrl: apiBase.toString().replace(/\/$/, ''),
    analyticsId: parsed.data.VITE_ANALYTICS_ID,
    reportAnalytics: parsed.data.VITE_REPORT_ANALYTICS === 'true',
    reportErrors: parsed.data.VITE_REPORT_ERRORS === 'true',
  };
}
