// Zod-free, so the first page load can anonymise its page views (src/contract/analytics.ts re-exports it).

/** Route patterns whose parameter is a secret or personal (SPEC §2 route table), with the name shown instead. */
const ANONYMISED_ROUTES: ReadonlyArray<[RegExp, string]> = [
  [/^\/reset-password\/[^/]+\/unlock(\/\d+)?$/, '/reset-password/:unlockToken/unlock'],
  [/^\/reset-password\/[^/]+$/, '/reset-password/:resetToken'],
  [/^\/unlock\/[^/]+$/, '/unlock/:unlockToken'],
  [/^\/confirm-email\/[^/]+$/, '/confirm-email/:confirmationToken'],
  [/^\/[^/]+\/unlock(\/\d+)?$/, '/:unlockToken/unlock'],
  [/^\/requests\/(?!category(\/|$))[^/]+$/, '/requests/:requestId'],
  [/^\/attachments\/.+$/, '/attachments/:fileKey'],
];

/**
 * SPEC §2: ResetPassword, Unlock (and its legacy links), the e-mail confirmation link, Request and Attachment paths are reported with the
 * parameter name in place of its value, so tokens, request ids and file keys never reach analytics.
 */
export function anonymisePath(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const [pattern, anonymised] of ANONYMISED_ROUTES) {
    if (pattern.test(path)) return anonymised;
  }
  return path;
}
