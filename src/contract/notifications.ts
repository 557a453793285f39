import * as z from 'zod/mini';

/**
 * Beyond SPEC (issue 32): the employee's choice of e-mails about their concierge's replies, under
 * /api/v1/notification_settings (GET, PUT; signed in). A reply is e-mailed only if it is still unread a few minutes
 * later ('each'), or gathered in one e-mail a day ('digest'), or not at all ('none').
 */

export const replyEmailChoice = z.enum(['each', 'digest', 'none']);
export type ReplyEmailChoice = z.infer<typeof replyEmailChoice>;

export const REPLY_EMAIL_CHOICES: Record<ReplyEmailChoice, { label: string; description: string }> = {
  each: { label: 'Each reply', description: 'An e-mail when a reply is still unread a few minutes after it arrives.' },
  digest: { label: 'Daily digest', description: 'One e-mail a day listing the requests with unread replies.' },
  none: { label: 'None', description: 'No e-mails about replies; you will see them in the app.' },
};

export const notificationSettings = z.object({ reply_emails: replyEmailChoice });
export type NotificationSettings = z.infer<typeof notificationSettings>;

export const notificationSettingsResponse = z.object({ success: z.boolean(), settings: notificationSettings });
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponse>;
