import { unlockAccount } from '../services/account.ts';
import { ACCOUNT_MESSAGES } from '../services/account.messages.ts';
import { emailedLinkMachine } from './emailedLink.ts';

/** Unlock from an e-mailed link (SPEC §2, §8): loading, then success or failure. */
export const unlockMachine = emailedLinkMachine({
  id: 'unlock',
  use: (unlockToken) => unlockAccount(unlockToken),
  fallbackError: ACCOUNT_MESSAGES.unlockFailed,
});
