// Zod-free: the sign-in screens read these without loading the schemas (DESIGN §9 weight budget).

export const SSO_CALLBACK_PATH = '/api/v1/sso/callback';
/** Where the callback sends the browser back: the code or the reason travels in the fragment, never to a server. */
export const SSO_RETURN_PATH = '/sign-in/sso';

/** Why an SSO sign-in stopped, as the callback names it in the fragment (`#error=<reason>`). */
export const SSO_FAILURE_REASONS = [
  'cancelled',
  'refused',
  'state_mismatch',
  'expired',
  'email_unverified',
  'domain_not_allowed',
  'account_closed',
  'unavailable',
] as const;
export type SsoFailureReason = (typeof SSO_FAILURE_REASONS)[number];

/** What the app says for each reason (the sign-in screen shows it, with a way to start again). */
export const SSO_FAILURE_MESSAGES: Record<SsoFailureReason, string> = {
  cancelled: 'You cancelled the sign-in at your company’s identity provider.',
  refused: 'Your company’s identity provider did not sign you in. Please try again, or ask your IT team.',
  state_mismatch: 'This sign-in did not start in this browser, so we stopped it. Please start again from the sign-in page.',
  expired: 'This sign-in took too long and has expired. Please start again.',
  email_unverified: 'Your identity provider has not verified your e-mail address, so we cannot sign you in with it.',
  domain_not_allowed: 'Your identity provider signed you in with an address that your company’s single sign-on does not cover.',
  account_closed: 'This account cannot sign in. Ask your administrator if you need it again.',
  unavailable: 'Single sign-on is not available for this address right now. Please try again later.',
};

export function isSsoFailureReason(text: string): text is SsoFailureReason {
  return (SSO_FAILURE_REASONS as readonly string[]).includes(text);
}
