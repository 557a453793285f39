import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { MessageTransport } from '../domain/ports/messageTransport.ts';
import type { Log } from '../logging.ts';

/**
 * E-mail delivery for the outbox worker: SMTP (nodemailer) when SMTP_URL is set; otherwise the message stays readable
 * in the outbox table (and at /api/dev/outbox in demo mode) and only its recipient and subject are logged: its text
 * carries reset and unlock links, which must never reach a log.
 */
export function createMailTransport(config: Pick<Config, 'SMTP_URL' | 'APP_URL'>, log: Log): MessageTransport {
  if (!config.SMTP_URL) {
    return {
      async send(message) {
        log.info({ to: message.to, subject: message.subject }, 'e-mail (log transport, no SMTP_URL)');
      },
    };
  }
  const smtp = nodemailer.createTransport(config.SMTP_URL);
  const from = `Life Concierge <no-reply@${new URL(config.APP_URL).hostname}>`;
  return {
    async send(message) {
      await smtp.sendMail({ from, to: message.to, subject: message.subject ?? undefined, text: message.text });
    },
  };
}
