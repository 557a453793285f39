/**
 * The admin API faked at the network level (network.support.ts), for the admin model tests: the app's own client and
 * services run as they are. Each admin call waits as a pending call under the invoke id of the actor that makes it,
 * and the path settles it: with the actor's output, sent back in the route's answer shape, or with a
 * ConsoleCallError, sent back as the server's error answer (status, message, fields); an error without a status is a
 * network failure.
 */
import { expect } from 'vitest';
import { type FakeRoute, type SentCall, fakeNetwork } from './network.support.ts';

export type { FakeRoute, SentCall };

/** A presign for a file upload, answered at once, so that an upload goes straight to its (fake) transfer. */
export const PRESIGNED_LOGO = { key: 'uploads/new-logo', presigned_url: 'https://files.example/new-logo' };

/** Installs the fake admin API (and the presign of uploads); returns every call sent, oldest first. */
export function fakeAdminApi(routes: readonly FakeRoute[]): SentCall[] {
  return fakeNetwork([...routes, { method: 'POST', path: /^uploads\/presigned_url$/, answer: () => PRESIGNED_LOGO }]).sent;
}

/** Each field shows the message the form holds for it, tied to it as its description, and no other is marked. */
export function expectFieldMessages(fields: Record<string, HTMLElement>, fieldErrors: Record<string, string>): void {
  for (const [name, input] of Object.entries(fields)) {
    const message = fieldErrors[name];
    if (message) {
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
    } else {
      expect(input).not.toHaveAttribute('aria-invalid');
    }
  }
}
