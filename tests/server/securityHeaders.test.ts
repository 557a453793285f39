import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS_POLICY } from '../../server/plugins/securityHeaders.ts';
import { createTestContext, suiteContext } from './harness.ts';
import { authHeaders, registerUser, signedIn } from './helpers.ts';

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

function sourcesOf(name: string, csp: string | undefined): string[] {
  const directive = (csp ?? '').split(';').map((part) => part.trim()).find((part) => part.startsWith(`${name} `));
  return directive?.split(/\s+/).slice(1) ?? [];
}
const connectSources = (csp: string | undefined) => sourcesOf('connect-src', csp);

describe('security headers', () => {
  it('API answers are never cached: personal, refused or unknown alike', async () => {
    const authorization = await signedIn(context, await registerUser(context));
    const answers = await Promise.all([
      context.app.inject({ method: 'GET', url: '/api/v1/users/current', headers: authHeaders(authorization) }),
      context.app.inject({ method: 'GET', url: '/api/v1/requests/open', headers: authHeaders(authorization) }),
      context.app.inject({ method: 'GET', url: '/api/v1/users/current' }),
      context.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 401, 404]);
    for (const answer of answers) {
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    }
  });

  it('the page may connect to its own origin only (no ws: or wss: anywhere)', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(connectSources(response.headers['content-security-policy'] as string)).toEqual(["'self'"]);
    expect(response.headers['permissions-policy']).toContain('camera=()');
  });

  it('with S3 storage, the bucket endpoint is the one other origin, for its PUTs and its images', async () => {
    const s3 = await createTestContext({
      STORAGE: 's3',
      S3_BUCKET: 'files',
      S3_REGION: 'eu-west-1',
      S3_ENDPOINT: 'http://objects.example.com:9000/base',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    try {
      const response = await s3.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
      const csp = response.headers['content-security-policy'] as string;
      expect(connectSources(csp)).toEqual(["'self'", 'http://objects.example.com:9000']);
      expect(sourcesOf('img-src', csp)).toContain('http://objects.example.com:9000');
    } finally {
      await s3.close();
    }
  });

  it("runs the built shell's own inline script (the early session call) and no other inline script", async () => {
    const built = mkdtempSync(join(tmpdir(), 'lc-csp-'));
    const earlyCall = 'window.early = fetch("/api/v1/users/current");';
    writeFileSync(join(built, 'index.html'), `<!doctype html><html><head><script>${earlyCall}</script></head><body></body></html>`);
    const withShell = await createTestContext({ STATIC_DIR: built });
    try {
      const response = await withShell.app.inject({ method: 'GET', url: '/sign-in' });
      const scriptSources = sourcesOf('script-src', response.headers['content-security-policy'] as string);
      expect(scriptSources).toEqual(["'self'", `'sha256-${createHash('sha256').update(earlyCall).digest('base64')}'`]);
      expect(scriptSources).not.toContain("'unsafe-inline'");
    } finally {
      await withShell.close();
      rmSync(built, { recursive: true, force: true });
    }
    const bare = await context.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(sourcesOf('script-src', bare.headers['content-security-policy'] as string)).toEqual(["'self'"]);
  });
});
