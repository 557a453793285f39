/**
 * The zod-free part of the common contract (src/contract/common.ts re-exports it): what the first page load needs
 * without pulling the schema library into it (DESIGN §9 weight budget).
 */

/** Header names of SPEC §7. */
export const AUTHORIZATION_HEADER = 'authorization';
export const MFA_TOKEN_HEADER = 'mfa-token';
/** The 401 error that means "verify an SMS code first" rather than "your session is gone". */
export const MFA_REQUIRED_ERROR = 'MFA authentication required';
