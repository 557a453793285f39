import { describe, expect, it } from 'vitest';
import { LOCAL_API_ORIGIN, MissingEnvironmentError, readConfig } from '../../src/services/config.ts';

const VALID_ENV = {
  VITE_API_BASE_URL: '/',
  VITE_ANALYTICS_ID: 'life-concierge-test',
  VITE_REPORT_ANALYTICS: 'true',
  VITE_REPORT_ERRORS: 'false',
};
const LOCAL_PAGE = 'http://localhost:5173';

describe('readConfig (SPEC §5 start-up configuration, §7 API base)', () => {
  it('reads the four variables; "/" means the API of the page\'s own origin', () => {
    expect(readConfig(VALID_ENV, LOCAL_PAGE)).toEqual({
      apiBaseUrl: LOCAL_PAGE,
      analyticsId: 'life-concierge-test',
      reportAnalytics: true,
      reportErrors: false,
      sentryDsn: null,
    });
  });

  it('takes an optional Sentry DSN, which must be a URL', () => {
    const dsn = 'https://public@sentry.example.com/7';
    expect(readConfig({ ...VALID_ENV, VITE_SENTRY_DSN: dsn }, LOCAL_PAGE).sentryDsn).toBe(dsn);
    expect(readConfig({ ...VALID_ENV, VITE_SENTRY_DSN: '' }, LOCAL_PAGE).sentryDsn).toBeNull();
    expect(() => readConfig({ ...VALID_ENV, VITE_SENTRY_DSN: 'not a dsn' }, LOCAL_PAGE)).toThrow(MissingEnvironmentError);
  });

  it.each(Object.keys(VALID_ENV))("stops with 'Missing environment variables' without %s", (name) => {
    const env: Record<string, string> = { ...VALID_ENV };
    delete env[name];
    expect(() => readConfig(env, LOCAL_PAGE)).toThrow(MissingEnvironmentError);
    expect(() => readConfig(env, LOCAL_PAGE)).toThrow('Missing environment variables');
  });

  it('rejects flags that are not "true" or "false", and an empty analytics id', () => {
    expect(() => readConfig({ ...VALID_ENV, VITE_REPORT_ERRORS: 'yes' }, LOCAL_PAGE)).toThrow(MissingEnvironmentError);
    expect(() => readConfig({ ...VALID_ENV, VITE_ANALYTICS_ID: '' }, LOCAL_PAGE)).toThrow(MissingEnvironmentError);
  });

  it('rejects an API base that is not a valid URL', () => {
    expect(() => readConfig({ ...VALID_ENV, VITE_API_BASE_URL: 'http://' }, LOCAL_PAGE)).toThrow(MissingEnvironmentError);
  });

  it('points a non-production page at the local API instead of the production one', () => {
    const env = { ...VALID_ENV, VITE_API_BASE_URL: 'https://app.lifeconcierge.com' };
    expect(readConfig(env, 'https://staging.example.com').apiBaseUrl).toBe(LOCAL_API_ORIGIN);
  });

  it('keeps the production API for a production page, or when the override flag is set', () => {
    const env = { ...VALID_ENV, VITE_API_BASE_URL: 'https://app.lifeconcierge.com/' };
    expect(readConfig(env, 'https://www.lifeconcierge.com').apiBaseUrl).toBe('https://app.lifeconcierge.com');
    expect(
      readConfig({ ...env, VITE_ALLOW_PRODUCTION_API: 'true' }, 'https://staging.example.com').apiBaseUrl,
    ).toBe('https://app.lifeconcierge.com');
  });

  it('keeps a non-production API as it is', () => {
    const env = { ...VALID_ENV, VITE_API_BASE_URL: 'https://api.staging.example.com/' };
    expect(readConfig(env, 'https://staging.example.com').apiBaseUrl).toBe('https://api.staging.example.com');
  });
});
