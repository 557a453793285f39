/**
 * A post on its way (a message, reply or note), with the Idempotency-Key it is sent under. Sending the same content
 * again after a failure reuses the key, so a post that was stored although its answer was lost is not stored twice;
 * different content gets a new key.
 */
export interface PendingPost {
  key: string;
  /** What the post carries, e.g. JSON of its text and file. */
  content: string;
}

/** crypto.randomUUID exists only in secure contexts; getRandomValues everywhere. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The post to send now: the failed one again when the content is unchanged, else a new one. */
export function nextPost(previous: PendingPost | null, content: unknown): PendingPost {
  const text = JSON.stringify(content);
  return previous?.content === text ? previous : { key: newIdempotencyKey(), content: text };
}
