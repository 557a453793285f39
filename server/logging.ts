import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { REDACTED, SECRET_QUERY_PARAMETERS, redactSecrets } from '../src/contract/secrets.ts';
import type { Config } from './config.ts';

/**
 * What the server logs, kept free of secrets (issue 9 point 6): no password or its hash, no session, MFA, reset,
 * unlock or stream token, no SMS code and no signed file address ever reaches a log line.
 */

/** What a part of the server that runs outside a request (the outbox worker, a transport) logs to. */
export type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * The address as logged: the tokens of e-mailed links in the path (a page load of /reset-password/<token>) and
 * secret query values replaced, e.g. /api/v1/users/unlock?unlock_token=[redacted].
 */
export function redactUrl(url: string): string {
  return redactSecrets(withSecretQueryValuesRedacted(url));
}

/** Also when the parameter's name is percent-encoded, which the shared pattern of redactSecrets does not read. */
function withSecretQueryValuesRedacted(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0];
      return SECRET_QUERY_PARAMETERS.includes(safeDecode(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A failed database query's message and stack end with its parameters (a password hash, a token digest...). */
export function withoutQueryParameters(text: string | undefined): string | undefined {
  return text?.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, `\nparams: ${REDACTED}`);
}

/**
 * An unexpected error as logged: its type, message and stack, the database's error code, and the same of its cause,
 * without the query parameters or any other property a driver attaches (a pg error's `detail` repeats the values).
 */
export function errorForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const { code } = error as { code?: unknown };
  return {
    type: error.name,
    message: withoutQueryParameters(error.message),
    ...(typeof code === 'string' ? { code } : {}),
    stack: withoutQueryParameters(error.stack),
    ...(error.cause === undefined ? {} : { cause: errorForLog(error.cause) }),
  };
}

/** Fastify's logger settings: the request line with secret query values redacted, credentials never logged. */
export function loggerOptions(level: Config['LOG_LEVEL'], stream?: { write(line: string): void }) {
  if (level === 'silent') return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers["mfa-token"]', 'req.headers.cookie', 'res.headers.authorization', 'res.headers["mfa-token"]'],
      censor: REDACTED,
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
  };
}
