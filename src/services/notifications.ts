import { type NotificationSettings, type ReplyEmailChoice, notificationSettingsResponse } from '../contract/notifications.ts';
import { api } from './http.ts';

/** The employee's choice of reply e-mails (beyond SPEC, issue 32), under /api/v1/notification_settings. */

export async function fetchReplyEmailChoice(): Promise<ReplyEmailChoice> {
  const client = await api();
  return (await client.get('notification_settings').json(notificationSettingsResponse)).settings.reply_emails;
}

export async function saveReplyEmailChoice(choice: ReplyEmailChoice): Promise<ReplyEmailChoice> {
  const client = await api();
  const payload: NotificationSettings = { reply_emails: choice };
  return (await client.put('notification_settings', { json: payload }).json(notificationSettingsResponse)).settings.reply_emails;
}
