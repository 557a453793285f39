import { z } from 'zod';

const commaList = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean));

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Defaults to loopback outside production (see loadConfig). */
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Public address used in e-mailed links; defaults to http://localhost:<PORT>. */
  APP_URL: z.url().optional(),
  SMTP_URL: z.url().optional(),
  SMS_PROVIDER_URL: z.url().optional(),
  STORAGE: z.enum(['disk', 's3']).default('disk'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Signs upload URLs; when absent a secret is generated once and kept in DATA_DIR. */
  SIGNING_SECRET: z.string().min(32).optional(),
  /**
   * Seals SSO client secrets at rest (AES-256-GCM): 32 bytes as 64 hex digits or base64. The server does not start
   * in production without it (main.ts); elsewhere a development key is derived (server/domain/sso/secretBox.ts).
   */
  SSO_SECRET_KEY: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=?)$/, 'must be 32 bytes: 64 hex digits or base64')
    .optional(),
  /** Outside production, start the built-in demo identity provider on this loopback port (0: do not start it). */
  DEMO_IDP_PORT: z.coerce.number().int().min(0).max(65535).default(3400),
  INTERNAL_COMPANY_NAMES: commaList.default(['Life Concierge', 'Life Concierge Staff']),
  SEED_PASSWORD: z.string().min(6).max(128).default('demo-password'),
  /** Requests per minute per client on the sensitive account calls (sign-in, sign-up, OTP, reset). */
  AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  STATIC_DIR: z.string().default('./dist'),
  /** Set when a reverse proxy sits in front: X-Forwarded-For is then trusted for the client address. */
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  /**
   * Test runs only, named by their suite: every answer of a documented route is checked against the OpenAPI document,
   * and the route x status pairs seen are written to openapi-coverage/<suite>-*.json (server/openapi/responseCheck.ts).
   */
  OPENAPI_RESPONSE_CHECK: z.enum(['server', 'e2e']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * How long a concierge's reply waits unread before it is e-mailed to the employee (issue 32); a read reply is never
   * e-mailed. Five minutes unless set (end-to-end tests shorten it).
   */
  REPLY_EMAIL_DELAY_MS: z.coerce.number().int().min(0).default(5 * 60 * 1000),
  /**
   * Test runs only (NODE_ENV=test): the turnaround targets' clock starts at this instant and stands still until the
   * loopback-only POST /api/dev/clock moves it, so that the end-to-end story sees a request fall due.
   */
  MANUAL_CLOCK_START: z.iso.datetime({ offset: true }).optional(),
  /** The server's own errors and traces go to this Sentry (or GlitchTip) project; without it nothing is sent. */
  SENTRY_DSN: z.url().optional(),
  /** The browser's project (the app is built with it): the tunnel forwards envelopes for this DSN and no other. */
  VITE_SENTRY_DSN: z.url().optional(),
});

export type Config = Omit<z.infer<typeof configSchema>, 'APP_URL' | 'HOST'> & { APP_URL: string; HOST: string };

export class ConfigError extends Error {}

/** A host name or client address of this machine only (127.0.0.0/8, ::1, or an IPv4-mapped 127.x). */
export function isLoopback(hostOrAddress: string): boolean {
  return hostOrAddress === 'localhost' || hostOrAddress === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(hostOrAddress);
}

/** Outside production the server carries demo accounts with a known password and the dev outbox. */
export function hasDemoMode(config: Pick<Config, 'NODE_ENV'>): boolean {
  return config.NODE_ENV !== 'production';
}

/** E-mail or SMS really leaves the machine: the outbox then holds messages meant for real people only. */
export function hasRealTransport(config: Pick<Config, 'SMTP_URL' | 'SMS_PROVIDER_URL'>): boolean {
  return config.SMTP_URL !== undefined || config.SMS_PROVIDER_URL !== undefined;
}

/** Reads and validates the environment; throws a ConfigError that names every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  if (parsed.data.STORAGE === 's3' && !parsed.data.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE=s3');
  }
  if (parsed.data.MANUAL_CLOCK_START !== undefined && parsed.data.NODE_ENV !== 'test') {
    throw new ConfigError(`Invalid configuration:\n  MANUAL_CLOCK_START: only test runs may move the server's clock (NODE_ENV=${parsed.data.NODE_ENV})`);
  }
  const HOST = parsed.data.HOST ?? (hasDemoMode(parsed.data) ? 'localhost' : '0.0.0.0');
  if (hasDemoMode(parsed.data) && !isLoopback(HOST)) {
    throw new ConfigError(
      [
        `Refusing to listen on ${HOST} with NODE_ENV=${parsed.data.NODE_ENV}: outside production the server seeds demo`,
        'accounts with a known password and serves the dev outbox, which must not be reachable from other machines.',
        '  To try it on this machine: leave HOST unset (localhost).',
        '  To run it for real: NODE_ENV=production (no demo data, no dev outbox; listens on 0.0.0.0 unless HOST is set),',
        '  then create the first admin with `npm run admin:create -- you@example.com`.',
      ].join('\n'),
    );
  }
  return { ...parsed.data, HOST, APP_URL: parsed.data.APP_URL ?? `http://localhost:${parsed.data.PORT}` };
}
