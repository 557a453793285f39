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
  /** Sentry (or GlitchTip) project of the browser's errors, replays and traces; null: they stay in the app. */
  sentryDsn: string | null;
}

/**
 * Validates the build-time environment (SPEC §5 start-up configuration): the API base, the analytics id, and the two
 * report flags "true" or "false" (the optional production override too), and the optional Sentry DSN. VITE_API_BASE_URL may be "/" (same origin
 * as the page), which is how the app is served by its own server; it must resolve to a valid URL either way.
 * A page served from a non-production origin that points at a production API is pointed at the local API instead,
 * unless VITE_ALLOW_PRODUCTION_API is "true". Plain checks rather than a schema: this runs on the first page, which
 * carries no zod (DESIGN §9 weight budget).
 */
export function readConfig(env: Record<string, unknown> = import.meta.env, pageOrigin = window.location.origin): AppConfig {
  const apiBaseSetting = requiredText(env.VITE_API_BASE_URL);
  const analyticsId = requiredText(env.VITE_ANALYTICS_ID);
  const reportAnalytics = flag(env.VITE_REPORT_ANALYTICS);
  const reportErrors = flag(env.VITE_REPORT_ERRORS);
  const allowProductionApi = env.VITE_ALLOW_PRODUCTION_API === undefined ? false : flag(env.VITE_ALLOW_PRODUCTION_API);
  const sentryDsn = optionalUrl(env.VITE_SENTRY_DSN);
  let apiBase: URL;
  try {
    apiBase = new URL(apiBaseSetting, pageOrigin);
  } catch {
    throw new MissingEnvironmentError();
  }
  const pointsAtProduction = PRODUCTION_ORIGINS.includes(apiBase.origin);
  const pageIsProduction = PRODUCTION_ORIGINS.includes(pageOrigin);
  if (pointsAtProduction && !pageIsProduction && !allowProductionApi) {
    apiBase = new URL(LOCAL_API_ORIGIN);
  }
  return { apiBaseUrl: apiBase.toString().replace(/\/$/, ''), analyticsId, reportAnalytics, reportErrors, sentryDsn };
}

/** An optional absolute URL: unset or empty is null, anything else must parse. */
function optionalUrl(value: unknown): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !URL.canParse(value)) throw new MissingEnvironmentError();
  return value;
}

/** A variable that must be set to a non-empty string. */
function requiredText(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new MissingEnvironmentError();
  return value;
}

/** A "true"/"false" variable; anything else (or nothing) stops the start-up. */
function flag(value: unknown): boolean {
  if (value !== 'true' && value !== 'false') throw new MissingEnvironmentError();
  return value === 'true';
}
