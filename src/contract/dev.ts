import * as z from 'zod/mini';

/**
 * GET /api/dev/outbox (outside production only): the e-mails and SMS the server has written, newest first.
 * End-to-end tests and developers read reset links, unlock links and SMS codes from here.
 */
export const outboxQuery = z.object({
  /** An e-mail address or a phone number; only messages to it are listed. */
  to: z.optional(z.string().check(z.trim(), z.minLength(1))),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 20),
});
export type OutboxQuery = z.input<typeof outboxQuery>;

export const outboxMessage = z.object({
  id: z.number().check(z.int()),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.nullable(z.string()),
  text: z.string(),
  /** The URLs found in the text (reset and unlock links). */
  links: z.array(z.string()),
  created_at: z.string(),
  delivered_at: z.nullable(z.string()),
});
export type OutboxMessage = z.infer<typeof outboxMessage>;

export const outboxResponse = z.object({ messages: z.array(outboxMessage) });
export type OutboxResponse = z.infer<typeof outboxResponse>;

/** The longest single move of the test clock: 60 days, far past any turnaround target. */
export const CLOCK_ADVANCE_MAX_MINUTES = 60 * 24 * 60;

/**
 * POST /api/dev/clock (test runs started with MANUAL_CLOCK_START only; 409 otherwise): sets the turnaround targets'
 * clock to an instant, or moves it on by some minutes, and answers where it now stands.
 */
export const CLOCK_MOVE_ERROR = 'Give either set or advance_minutes';
export const clockMove = z
  .strictObject({
    /** The instant the clock now shows. */
    set: z.optional(z.iso.datetime({ offset: true })),
    /** Minutes to move it on by. */
    advance_minutes: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(CLOCK_ADVANCE_MAX_MINUTES))),
  })
  .check(z.refine((move) => (move.set === undefined) !== (move.advance_minutes === undefined), CLOCK_MOVE_ERROR));
export type ClockMove = z.infer<typeof clockMove>;

export const clockResponse = z.object({ now: z.string() });
export type ClockResponse = z.infer<typeof clockResponse>;
