import type { Config } from '../config.ts';
import type { MessageTransport } from '../domain/ports/messageTransport.ts';
import type { Log } from '../logging.ts';

const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * SMS delivery for the outbox worker: a JSON POST of {to, text} to SMS_PROVIDER_URL when it is set (any 2xx
 * answer counts as delivered); otherwise the message is only logged and stays readable in the outbox.
 */
export function createSmsTransport(config: Pick<Config, 'SMS_PROVIDER_URL'>, log: Log): MessageTransport {
  const providerUrl = config.SMS_PROVIDER_URL;
  if (!providerUrl) {
    return {
      async send(message) {
        // The text is a sign-in code: never logged.
        log.info({ to: message.to }, 'SMS (log transport, no SMS_PROVIDER_URL)');
      },
    };
  }
  return {
    async send(message) {
      const response = await fetch(providerUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ to: message.to, text: message.text }),
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
      if (!response.ok) {
        const detail = (await response.text().catch(() => '')).slice(0, 200);
        throw new Error(`SMS provider answered ${response.status}${detail ? `: ${detail}` : ''}`);
      }
    },
  };
}
