import { describe, expect, it } from 'vitest';
import { nextPost } from '../../src/machines/idempotentPost.ts';

describe('nextPost: the Idempotency-Key a message is sent under', () => {
  it('is kept when the same content is sent again, and new for new content', () => {
    const first = nextPost(null, { body: 'Tuesday works.', attachmentKey: null });
    expect(first.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nextPost(first, { body: 'Tuesday works.', attachmentKey: null })).toBe(first);
    const edited = nextPost(first, { body: 'Tuesday works!', attachmentKey: null });
    expect(edited.key).not.toBe(first.key);
    expect(nextPost(first, { body: 'Tuesday works.', attachmentKey: 'uploads/x.png' }).key).not.toBe(first.key);
  });

  it('makes a v4 UUID where crypto.randomUUID is missing (a page not served over HTTPS)', () => {
    const randomUUID = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 50 }, () => nextPost(null, 'x').key));
      expect(keys.size).toBe(50);
      for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });
});
