import type { RateLimitOptions } from '@fastify/rate-limit';
import type { Config } from '../config.ts';

export const TOO_MANY_REQUESTS_ERROR = 'Too many attempts. Please wait a minute and try again.';

/** Route config for the sensitive account calls: AUTH_RATE_LIMIT calls per minute per client address. */
export function authRateLimit(config: Pick<Config, 'AUTH_RATE_LIMIT'>): RateLimitOptions {
  return {
    max: config.AUTH_RATE_LIMIT,
    timeWindow: '1 minute',
    // Thrown by the plugin: the app's error handler answers it as { error } with this status.
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(TOO_MANY_REQUESTS_ERROR), { statusCode: context.statusCode }),
  };
}
