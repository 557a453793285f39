import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { EMAIL_PATTERN } from '../../src/contract/account.rules.ts';
import { errorBodyMessage } from '../../src/contract/common.constants.ts';
import { errorBody } from '../../src/contract/common.ts';

// The first page load reads these without zod (DESIGN §9 weight budget); they must say what the schemas say.

describe('errorBodyMessage agrees with the errorBody schema', () => {
  const bodies: unknown[] = [
    { error: 'Request not found' },
    { error: 'Invalid fields', fields: { 'user.email': 'is invalid' } },
    { error: 'Invalid fields', fields: {} },
    { error: 'Invalid fields', fields: { 'user.email': 3 } },
    { error: 'Invalid fields', fields: ['is invalid'] },
    { error: 'Invalid fields', fields: null },
    { error: 42 },
    { message: 'no error field' },
    ['Request not found'],
    'Request not found',
    null,
    undefined,
  ];

  it.each(bodies.map((body) => [JSON.stringify(body) ?? 'undefined', body]))('%s', (_, body) => {
    const parsed = errorBody.safeParse(body);
    expect(errorBodyMessage(body)).toBe(parsed.success ? parsed.data.error : null);
  });
});

describe("EMAIL_PATTERN is zod's own e-mail pattern", () => {
  const addresses = [
    'a@b.co',
    'first.last@example.org',
    "o'neil+tag@sub.example.museum",
    'a_b-c@x-y.zz',
    'x@y',
    'a..b@c.de',
    '.a@b.cd',
    'a-@b.cd',
    'a@-b.cd',
    'a@b.c',
    'a b@c.de',
    '',
  ];

  it.each(addresses)('%j', (address) => {
    expect(EMAIL_PATTERN.test(address)).toBe(z.regexes.email.test(address));
  });
});
