import * as z from 'zod/mini';
import { EMAIL_PATTERN, MFA_CODE_PATTERN, MFA_PHONE_PATTERN, PASSWORD_MAX, PASSWORD_MIN } from './account.rules.ts';

export { EMAIL_PATTERN, MFA_CODE_PATTERN, MFA_PHONE_PATTERN, PASSWORD_MAX, PASSWORD_MIN } from './account.rules.ts';

const email = z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.email({ pattern: EMAIL_PATTERN }));
const password = z.string().check(z.minLength(PASSWORD_MIN), z.maxLength(PASSWORD_MAX));

export const company = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  image_url: z.nullable(z.string()),
});
export type Company = z.infer<typeof company>;

export const user = z.object({
  external_id: z.string(),
  full_name: z.string(),
  first_name: z.string(),
  /** First letters of the first and last word of full_name, upper-cased. */
  initials: z.string(),
  email: z.string(),
  request_count: z.number().check(z.int(), z.nonnegative()),
  companies: z.array(company),
  role: z.enum(['employee', 'concierge', 'admin', 'employer_admin']),
  /** Belongs to a company named in INTERNAL_COMPANY_NAMES (sent to analytics and error reporting). */
  internal_user: z.boolean(),
  /** The onboarding steps (AboutUs, AboutYou, ContactInfo) have not been completed yet. */
  onboarding_required: z.boolean(),
  mfa_enrolled: z.boolean(),
  /**
   * Not in SPEC §3 (issue 32 point 3): the last four digits of the verified MFA phone, for Account to show it masked;
   * null when not enrolled. The whole number is never sent back.
   */
  mfa_phone_last_digits: z.nullable(z.string()),
  /**
   * Not in SPEC §3 (issue 9 point 9): the address is not confirmed yet, so the companies of the sign-up link are not
   * granted (no benefits, no 'Brought to you by') until the e-mailed link is opened.
   */
  email_confirmation_pending: z.boolean(),
});
export type User = z.infer<typeof user>;
export const currentUserResponse = z.object({ user });

export const signInRequest = z.object({
  user: z.object({ email, password: z.string().check(z.minLength(1), z.maxLength(PASSWORD_MAX)) }),
});
export type SignInRequest = z.infer<typeof signInRequest>;
export const signInResponse = z.object({
  expires_at: z.string(),
  /** The company requires MFA and the user has no verified phone yet: enrolment must happen now. */
  mfa_requires_verification: z.boolean(),
  /** The user has a verified phone: an SMS code must be verified before any other call. */
  mfa_required: z.boolean(),
  /** The company offers optional MFA and the user has not enrolled. */
  mfa_enrollment_available: z.boolean(),
});
export type SignInResponse = z.infer<typeof signInResponse>;

export const signUpRequest = z.object({
  user: z.object({
    email,
    password,
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    last_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    terms_of_service: z._default(z.union([z.literal(1), z.literal('1'), z.literal(true)]), 1),
    company_slug: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  }),
});
export type SignUpRequest = z.input<typeof signUpRequest>;
/** SPEC §7: the answer's data is a JSON string holding the e-mail, e.g. "{\"email\":\"a@b.c\"}". */
export const signUpResponse = z.string();
export const signUpResponseData = z.object({ email: z.string() });

export const forgotPasswordRequest = z.object({ user: z.object({ email }) });
export const resetPasswordRequest = z.object({
  reset_password_token: z.string().check(z.minLength(1)),
  password,
  password_confirmation: password,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

export const unlockQuery = z.object({ unlock_token: z.string().check(z.minLength(1)) });
export const confirmationQuery = z.object({ confirmation_token: z.string().check(z.minLength(1), z.maxLength(200)) });

export const mfaVerifyRequest = z.object({ otp: z.string().check(z.regex(MFA_CODE_PATTERN)) });
export const mfaEnrollRequest = z.object({ mfa_number: z.string().check(z.regex(MFA_PHONE_PATTERN)) });
