import { CONFIRMATION_LINK_SENT_MESSAGE, INVALID_CONFIRMATION_LINK_ERROR } from '../contract/account.rules.ts';

/**
 * What the account screens say (SPEC §7, §8), apart from the calls (account.ts) so that views may show it: views call
 * no service (eslint.config.js layers).
 */

/** The support contact of the account screens (SPEC §7 Account, §8 unlock failure). */
export const SUPPORT_EMAIL = 'support@lifeconcierge.com';

/** SPEC §8 account messages, verbatim. */
export const ACCOUNT_MESSAGES = {
  signInUnavailable: 'Unable to sign in at this time. Please try again later.',
  signInError: 'Sign in error',
  noAuthorizationToken: 'No authorization token received',
  signUpUnavailable: 'Unable to sign up at this time. Please try again later.',
  signUpError: 'Sign up error',
  mfaVerifyFailed: 'Unable to verify MFA token',
  noMfaToken: 'No MFA verification token received',
  mfaCodeRequestFailed: 'Unable to request MFA token at this time.',
  mfaEnrollFailed: 'Unable to enroll in MFA at this time.',
  resetUnavailable: 'Unable to reset password at this time. Please try again later.',
  resetSucceeded: 'Your password has been updated successfully. You can sign in with your new password now.',
  forgotPasswordConfirmation:
    'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.',
  unlockFailed: 'Unable to unlock your account',
  currentUserFailed: 'Failed to refresh current user state',
} as const;

/** The e-mail confirmation (issue 9 point 9) is not in the SPEC: its messages follow §8's tone. */
export const EMAIL_CONFIRMATION_MESSAGES = {
  confirmationFailed: 'Unable to confirm your e-mail address',
  invalidLink: INVALID_CONFIRMATION_LINK_ERROR,
  linkRequestFailed: 'Unable to send a new link at this time. Please try again later.',
  linkSent: CONFIRMATION_LINK_SENT_MESSAGE,
} as const;
