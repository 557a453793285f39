import { z } from 'zod';

/**
 * GET /api/dev/outbox (outside production only): the e-mails and SMS the server has written, newest first.
 * End-to-end tests and developers read reset links, unlock links and SMS codes from here.
 */
export const outboxQuery = z.object({
  /** An e-mail address or a phone number; only messages to it are listed. */
  to: z.string().trim().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type OutboxQuery = z.input<typeof outboxQuery>;

export const outboxMessage = z.object({
  id: z.number().int(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.string().nullable(),
  text: z.string(),
  /** The URLs found in the text (reset and unlock links). */
  links: z.array(z.string()),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});
export type OutboxMessage = z.infer<typeof outboxMessage>;

export const outboxResponse = z.object({ messages: z.array(outboxMessage) });
export type OutboxResponse = z.infer<typeof outboxResponse>;
