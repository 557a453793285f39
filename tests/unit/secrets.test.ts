import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, redactSecretsDeep } from '../../src/contract/secrets.ts';

describe('redactSecrets', () => {
  it.each([
    ['http://127.0.0.1:3100/reset-password/Zm9vYmFy', `http://127.0.0.1:3100/reset-password/${REDACTED}`],
    // The step number goes too: harmless, and simpler than telling /unlock/<token> from /<token>/unlock/<step>.
    ['/reset-password/abc/unlock/2', `/reset-password/${REDACTED}/unlock/${REDACTED}`],
    ['/unlock/abc?x=1', `/unlock/${REDACTED}?x=1`],
    ['/confirm-email/abc', `/confirm-email/${REDACTED}`],
    ['https://app.example.com/abc123/unlock', `https://app.example.com/${REDACTED}/unlock`],
    ['navigated from /abc123/unlock to /sign-in', `navigated from /${REDACTED}/unlock to /sign-in`],
    ['/api/v1/users/unlock?unlock_token=abc&x=1', `/api/v1/users/unlock?unlock_token=${REDACTED}&x=1`],
    ['/api/v1/users/confirmation?confirmation_token=abc', `/api/v1/users/confirmation?confirmation_token=${REDACTED}`],
    ['/api/v1/events?ticket=t1', `/api/v1/events?ticket=${REDACTED}`],
    ['/api/storage/k?expires=9&signature=s1', `/api/storage/k?expires=9&signature=${REDACTED}`],
    ['https://b.s3.amazonaws.com/k?X-Amz-Credential=c&X-Amz-Signature=s', `https://b.s3.amazonaws.com/k?X-Amz-Credential=${REDACTED}&X-Amz-Signature=${REDACTED}`],
    ['{"to":"/confirm-email/abc","from":"/sign-in"}', `{"to":"/confirm-email/${REDACTED}","from":"/sign-in"}`],
    ['401 with Authorization: Bearer abcDEF0123456789_-xyz', `401 with Authorization: Bearer ${REDACTED}`],
    ['bearer Zm9vYmFyYmF6cXV4Cg==', `bearer ${REDACTED}`],
    ['the bearer of bad news', 'the bearer of bad news'],
  ])('%s', (text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it.each(['/api/v1/users/unlock', '/requests/12', '/benefits-and-offers/all', 'GET /api/v1/offerings?types=benefit,product', 'Unlock your account'])(
    'leaves %s as it is',
    (text) => {
      expect(redactSecrets(text)).toBe(text);
    },
  );

  const token = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~%'), minLength: 12, maxLength: 64 });
  const origin = fc.constantFrom('', 'http://127.0.0.1:3100', 'https://app.lifeconcierge.com');
  const around = fc.constantFrom(['', ''], ['"', '"'], ['to ', ' now'], ['(', ')'], ['url=', '&x=1']);
  const place = fc.constantFrom(
    (secret: string) => `/reset-password/${secret}`,
    (secret: string) => `/reset-password/${secret}/unlock/1`,
    (secret: string) => `/unlock/${secret}`,
    (secret: string) => `/${secret}/unlock`,
    (secret: string) => `/confirm-email/${secret}`,
    (secret: string) => `/api/v1/users/unlock?unlock_token=${secret}`,
    (secret: string) => `/api/v1/users/confirmation?x=1&confirmation_token=${secret}`,
    (secret: string) => `/api/storage/key?expires=1&signature=${secret}`,
  );

  it('no token of an e-mailed link, stream ticket or signature survives, wherever the address stands', () => {
    fc.assert(
      fc.property(token, origin, around, place, (secret, host, [before, after], addressOf) => {
        const text = `${before}${host}${addressOf(secret)}${after}`;
        expect(redactSecrets(text)).not.toContain(secret);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('redactSecretsDeep', () => {
  it('cleans every string of a value, keys included, and keeps its shape', () => {
    const cyclic: Record<string, unknown> = { url: '/unlock/abc' };
    cyclic.self = cyclic;
    const cleaned = redactSecretsDeep({ list: ['/confirm-email/abc', 3, null, true], nested: { '/unlock/k': 'v' }, cyclic });
    expect(cleaned).toMatchObject({
      list: [`/confirm-email/${REDACTED}`, 3, null, true],
      nested: { [`/unlock/${REDACTED}`]: 'v' },
      cyclic: { url: `/unlock/${REDACTED}` },
    });
    expect(cleaned.cyclic.self).toBe(cleaned.cyclic);
  });
});
