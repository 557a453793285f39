/**
 * SPEC §5 limits shared by the forms and the server, without the schema library (src/contract/account.ts builds its
 * schemas on them and re-exports them), so the first page load's forms carry no zod (DESIGN §9 weight budget).
 */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const MFA_CODE_PATTERN = /^\d{6}$/;
export const MFA_PHONE_PATTERN = /^\d{10}$/;
/**
 * E-mail confirmation (issue 9 point 9, not in the SPEC): what the server answers, which the app shows, and leaves
 * unreported when the link is simply wrong.
 */
export const INVALID_CONFIRMATION_LINK_ERROR = 'Your confirmation link is invalid or has expired. Please request a new one.';
export const CONFIRMATION_LINK_SENT_MESSAGE = 'We sent you a new confirmation link. It works for 3 days.';
/** The e-mail format both sides accept: zod's own default e-mail pattern (z.regexes.email), named once here. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * The roles that work in the concierge console (and whose home in the app is the console): here, not beside the user
 * schema, so that the shell and the session decide it without loading zod.
 */
export function isStaffRole(role: string | undefined): boolean {
  return role === 'concierge' || role === 'admin';
}
