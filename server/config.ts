import { z } from 'zod';

const commaList = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean));

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
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
  INTERNAL_COMPANY_NAMES: commaList.default(['Life Concierge', 'Life Concierge Staff']),
  SEED_PASSWORD: z.string().min(6).max(128).default('demo-password'),
  /** Requests per minute per client on the sensitive account calls (sign-in, sign-up, OTP, reset). */
  AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  STATIC_DIR: z.string().default('./dist'),
  /** Set when a reverse proxy sits in front: X-Forwarded-For is then trusted for the client address. */
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = Omit<z.infer<typeof configSchema>, 'APP_URL'> & { APP_URL: string };

export class ConfigError extends Error {}

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
  return { ...parsed.data, APP_URL: parsed.data.APP_URL ?? `http://localhost:${parsed.data.PORT}` };
}
