// Zod-free: the first page load reads it.

/**
 * Where the browser posts its Sentry envelopes, under /api/v1 of the app's own origin (Sentry's `tunnel`): the CSP
 * stays 'self', and no blocker list names it. The server forwards each envelope to its DSN's host.
 */
export const MONITORING_TUNNEL_PATH = '/api/v1/monitoring';

/** SPEC §9 session replay and trace sampling. */
export const MONITORING_SAMPLE_RATES = {
  replaysSession: 0.1,
  replaysOnError: 1,
  traces: 1,
} as const;

/**
 * What Sentry's SDKs may collect, on both sides: no user fields, cookies, bodies (passwords, codes, messages),
 * database parameters or local variables; of the headers only the harmless ones.
 */
export const MONITORING_DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: { request: { allow: ['user-agent', 'content-type', 'accept'] }, response: { allow: ['content-type'] } },
  httpBodies: [],
  urlQueryParams: true,
  databaseQueryData: false,
  stackFrameVariables: false,
};
