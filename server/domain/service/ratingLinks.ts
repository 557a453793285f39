import { createHmac, timingSafeEqual } from 'node:crypto';
import { RATING_CHANGE_DAYS, RATING_SCORES } from '../../../src/contract/ratings.ts';
import { appLink } from '../shared/outbox.ts';

/**
 * The completion e-mail's one-click rating links (issue 28): `/requests/{id}/rate?score=N&token=T`. The token is an
 * HMAC, with the app's signing secret, of the request, the completion it rates and when the link expires (the end of
 * the change window), so a link names exactly one completion and can neither be forged nor stretched. Following a
 * link only opens the rating page with the score preselected; nothing is written until the page is confirmed, so a
 * mail scanner that follows every link changes nothing.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
export const RATING_WINDOW_MS = RATING_CHANGE_DAYS * DAY_MS;

export type RatingLinkCheck =
  | { valid: true; completedAt: Date }
  | { valid: false; reason: 'invalid' | 'expired' };

function signature(secret: string, requestId: number, completedAtMs: number, expiresAtMs: number): Buffer {
  return createHmac('sha256', secret).update(`rating:${requestId}:${completedAtMs}:${expiresAtMs}`).digest();
}

/** The token of a completion's links: `<completed at ms>.<expires at ms>.<signature>`. */
export function ratingLinkToken(secret: string, requestId: number, completedAt: Date): string {
  const completedAtMs = completedAt.getTime();
  const expiresAtMs = completedAtMs + RATING_WINDOW_MS;
  return `${completedAtMs}.${expiresAtMs}.${signature(secret, requestId, completedAtMs, expiresAtMs).toString('base64url')}`;
}

/** The five links of the completion e-mail, one per score. */
export function ratingLinks(secret: string, appUrl: string, requestId: number, completedAt: Date): string[] {
  const token = ratingLinkToken(secret, requestId, completedAt);
  return RATING_SCORES.map((score) => appLink(appUrl, `/requests/${requestId}/rate?score=${score}&token=${encodeURIComponent(token)}`));
}

/** Whether a token was signed by us for this request, and the completion it names while it has not expired. */
export function checkRatingLinkToken(secret: string, requestId: number, token: string, now: Date): RatingLinkCheck {
  const match = /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { valid: false, reason: 'invalid' };
  const completedAtMs = Number(match[1]);
  const expiresAtMs = Number(match[2]);
  const expected = signature(secret, requestId, completedAtMs, expiresAtMs);
  const given = Buffer.from(match[3], 'base64url');
  // Only the signature's one spelling: the last of 43 characters carries two unused bits, which must stay zero.
  const canonical = given.toString('base64url') === match[3];
  if (!canonical || given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false, reason: 'invalid' };
  if (now.getTime() >= expiresAtMs) return { valid: false, reason: 'expired' };
  return { valid: true, completedAt: new Date(completedAtMs) };
}
