import { confirmEmail } from '../services/account.ts';
import { EMAIL_CONFIRMATION_MESSAGES } from '../services/account.messages.ts';
import { emailedLinkMachine } from './emailedLink.ts';

/**
 * Confirming the address from the e-mailed link (issue 9 point 9; not in the SPEC): loading, then success or failure.
 * On success the session fetches the user again: the company and its benefits are granted now.
 */
export const emailConfirmationMachine = emailedLinkMachine({
  id: 'confirmEmail',
  use: (confirmationToken) => confirmEmail(confirmationToken),
  fallbackError: EMAIL_CONFIRMATION_MESSAGES.confirmationFailed,
  refreshesUser: true,
});
