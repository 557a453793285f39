import { isLoopback } from '../../config.ts';

/** An address on this machine only (localhost, 127.0.0.0/8, ::1): the one place an identity provider may speak http. */
export function isLoopbackUrl(url: URL): boolean {
  return isLoopback(url.hostname.replace(/^\[|\]$/g, ''));
}
