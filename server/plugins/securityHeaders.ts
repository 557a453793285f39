import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';

/**
 * Powerful browser features the app never uses, switched off for every page and for anything injected into one. Only
 * features the browsers know: Chromium logs an error on every page for one it does not (it did for 'bluetooth').
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/**
 * Security headers of every answer: helmet's set with a Content-Security-Policy that lets the page talk only to its
 * own origin (the API and the live-update stream) and, with S3 storage, the bucket it PUTs files to and shows images
 * from; a Permissions-Policy; and `Cache-Control: no-store` on API answers (they are personal: requests, messages,
 * the user), unless a route chose its own caching.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const pageHeaders = {
      ...helmetHeaders({
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", ...inlineScriptHashes(config)],
            // The bucket's own origin too: an S3-compatible store may answer over http (on a private network).
            imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...s3Origins(config)],
            styleSrc: ["'self'", "'unsafe-inline'"],
            connectSrc: ["'self'", ...s3Origins(config)],
            frameAncestors: ["'none'"],
            // Session replay compresses its recording in a worker it starts from a blob of its own code.
            workerSrc: ["'self'", 'blob:'],
            upgradeInsecureRequests: null,
          },
        },
      }),
      'permissions-policy': PERMISSIONS_POLICY,
    };
    app.addHook('onRequest', async (_request, reply) => {
      reply.headers(pageHeaders);
    });
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
  },
  { name: 'security-headers' },
);

/**
 * The headers helmet sets with these options, worked out once: they are the same for every answer, and helmet's
 * middleware (which @fastify/helmet would build anew for each request) parses its policy each time it is made.
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * The built shell's own inline scripts (the page's head script, vite.config.ts), allowed by their hashes: the policy
 * still refuses any other inline script. Every prerendered page carries the shell's head, so the same scripts.
 */
export function inlineScriptHashes(config: Pick<Config, 'STATIC_DIR'>): string[] {
  let shell: string;
  try {
    shell = readFileSync(join(config.STATIC_DIR, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  return [...shell.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, code]) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`,
  );
}

function s3Origins(config: Config): string[] {
  if (config.STORAGE !== 's3') return [];
  if (config.S3_ENDPOINT) return [new URL(config.S3_ENDPOINT).origin];
  return [`https://${config.S3_BUCKET}.s3.${config.S3_REGION ?? 'us-east-1'}.amazonaws.com`];
}
