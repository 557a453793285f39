import * as z from 'zod/mini';
import { PASSWORD_MAX, PASSWORD_MIN } from './account.rules.ts';

/**
 * The employee's profile in Account Settings (issue 32 point 3, beyond SPEC: docs/spec-differences.md): the name
 * (PATCH /api/v1/users/current) and the password (PUT /api/v1/users/current/password). The phone, the address and
 * the interests are the onboarding answers, edited through GET/POST /api/v1/onboarding_answers (surveys.ts). Both
 * sides validate with these schemas; the server's 422 names each field at fault.
 */

export const NAME_MAX = 100;

/** SPEC §5 Sign up and Reset password words, and the current password's own. */
export const PROFILE_ERRORS = {
  firstName: 'Please enter your first name',
  lastName: 'Please enter your last name',
  nameTooLong: `Please keep each name under ${NAME_MAX} characters`,
  currentPassword: 'Please enter your current password',
  wrongCurrentPassword: 'That is not your current password',
  newPassword: 'Please enter a valid password',
  confirmation: 'Please confirm your new password',
  mismatch: 'Passwords do not match',
} as const;

export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed. Every other device has been signed out.';

const name = (blank: string) => z.string().check(z.trim(), z.minLength(1, blank), z.maxLength(NAME_MAX, PROFILE_ERRORS.nameTooLong));

/** PATCH /api/v1/users/current -> 200 currentUserResponse: the user with the new name. */
export const nameChangeRequest = z.object({
  user: z.object({ name: name(PROFILE_ERRORS.firstName), last_name: name(PROFILE_ERRORS.lastName) }),
});
export type NameChangeRequest = z.infer<typeof nameChangeRequest>;

/**
 * PUT /api/v1/users/current/password -> 200 messageBody. The current password must be given (422 on
 * `current_password` when it is wrong); every other session of the user ends, the caller's stays.
 */
export const passwordChangeRequest = z
  .object({
    current_password: z.string().check(z.minLength(1, PROFILE_ERRORS.currentPassword), z.maxLength(PASSWORD_MAX)),
    password: z.string().check(
      z.minLength(PASSWORD_MIN, PROFILE_ERRORS.newPassword),
      z.maxLength(PASSWORD_MAX, PROFILE_ERRORS.newPassword),
    ),
    password_confirmation: z.string().check(z.minLength(1, PROFILE_ERRORS.confirmation), z.maxLength(PASSWORD_MAX)),
  })
  .check(
    z.refine((change) => change.password === change.password_confirmation, {
      message: PROFILE_ERRORS.mismatch,
      path: ['password_confirmation'],
    }),
  );
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequest>;
